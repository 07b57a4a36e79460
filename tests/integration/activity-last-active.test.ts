/**
 * Last-active times with Redis (the machine's Redis, under a key prefix of
 * this test's own): every signed-in request — REST, GraphQL — touches the
 * user in memory, at most once a minute, with no database write on the
 * request's path; the background flush puts it in the day's hash; profiles
 * and the API show it at once; `sync-user-actived-at` moves it to
 * users.actived_at and clears exactly what it moved.
 */
import { randomUUID } from 'node:crypto'

import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { registeredCommands, type CommandIO } from '../../jobs/commands'
import { dayIn } from '../../src/plugins/activity/day'
import { activityKeys, lastActiveRecorderOf } from '../../src/plugins/activity/lastActive'
import { poolOf } from '../../src/lib/pool'
import { graphqlRequest } from './graphql-client'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { createCast, PASSWORD } from '../helpers/users'

const PREFIX = `test:${randomUUID()}:`
const TIME_ZONE = 'America/New_York'
let t: TestPayload
let redis: Redis
let cast: Awaited<ReturnType<typeof createCast>>
const keys = activityKeys(PREFIX)
const quiet: CommandIO = { log: () => {}, progress: () => {} }

const run = (name: string) => registeredCommands(t.payload).schedules.find((s) => s.name === name)!.run(t.payload, quiet)

async function storedActivedAt(id: number): Promise<Date | null> {
  const { rows } = (await poolOf(t.payload).query('select actived_at from users where id = $1', [id])) as { rows: { actived_at: Date | null }[] }
  return rows[0]!.actived_at
}

async function tokenOf(email: string): Promise<string> {
  return (await t.payload.login({ collection: 'users', data: { email, password: PASSWORD } })).token!
}

beforeAll(async () => {
  t = await createTestPayload({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: PREFIX, APP_TIMEZONE: TIME_ZONE })
  redis = new Redis('redis://127.0.0.1:6379')
  cast = await createCast(t.payload)
})
afterAll(async () => {
  const own = await redis.keys(`${PREFIX}*`)
  if (own.length) await redis.del(...own)
  redis?.disconnect()
  await t?.destroy()
})

describe('last-active times in Redis', () => {
  it('records a signed-in REST request in memory only, once a minute, and shows it at once', async () => {
    const recorder = lastActiveRecorderOf(t.payload)!
    const browser = new Browser(t.payload, t.databaseName)
    const token = await tokenOf('reader@example.test')
    const before = Date.now()
    const me = await browser.request('/api/users/me', { headers: { authorization: `JWT ${token}` } })
    expect(me.status).toBe(200)
    const touched = recorder.unflushed(cast.reader.id)!
    expect(touched).toBeGreaterThanOrEqual(before)
    // Nothing written on the request's path: neither the database nor Redis.
    expect(await storedActivedAt(cast.reader.id)).toBeNull()
    expect(await redis.hget(keys.latest, String(cast.reader.id))).toBeNull()

    await recorder.flush()
    expect(Number(await redis.hget(keys.day(dayIn(TIME_ZONE, new Date(touched))), String(cast.reader.id)))).toBe(touched)
    // A second request within the minute records nothing new.
    await browser.request('/api/users/me', { headers: { authorization: `JWT ${token}` } })
    expect(recorder.unflushed(cast.reader.id)).toBeUndefined()

    // The profile (public REST, and the site's Local API read) shows it before any sync.
    const profile = await (await browser.request(`/api/users/${cast.reader.id}`)).json()
    expect(profile.activedAt).toBe(new Date(touched).toISOString())
    expect(await storedActivedAt(cast.reader.id)).toBeNull()
  })

  it('records a GraphQL request too', async () => {
    const token = await tokenOf('author@example.test')
    const reply = await graphqlRequest(t, '{ meUser { user { id } } }', { authorization: `JWT ${token}` })
    expect(reply.data?.meUser?.user?.id).toBe(cast.author.id)
    expect(lastActiveRecorderOf(t.payload)!.unflushed(cast.author.id)).toBeGreaterThan(0)
  })

  it('shows the registration time for a user never seen', async () => {
    const user = await t.payload.findByID({ collection: 'users', id: cast.otherAuthor.id, overrideAccess: false, user: null })
    expect(user.activedAt).toBe(user.createdAt)
  })

  it('syncs to users.actived_at, clears what it synced, and a second run changes nothing', async () => {
    const recorder = lastActiveRecorderOf(t.payload)!
    await recorder.flush()
    const readerAt = Number(await redis.hget(keys.latest, String(cast.reader.id)))
    const authorAt = Number(await redis.hget(keys.latest, String(cast.author.id)))
    expect(await run('sync-user-actived-at')).toMatch(/of 2 user-day/)
    expect((await storedActivedAt(cast.reader.id))?.getTime()).toBe(readerAt)
    expect((await storedActivedAt(cast.author.id))?.getTime()).toBe(authorAt)
    expect(await redis.hlen(keys.latest)).toBe(0)
    expect(await redis.smembers(keys.inflights)).toEqual([])
    expect(await run('sync-user-actived-at')).toMatch(/of 0 user-day/)
    expect((await storedActivedAt(cast.reader.id))?.getTime()).toBe(readerAt)
    const profile = await t.payload.findByID({ collection: 'users', id: cast.reader.id, overrideAccess: false, user: null })
    expect(profile.activedAt).toBe(new Date(readerAt).toISOString())
  })
})
