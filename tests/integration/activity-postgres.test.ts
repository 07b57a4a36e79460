/**
 * Activity without Redis, and what does not depend on it: views and
 * last-active times go to PostgreSQL in batches (each view batch applied
 * once, into articles.view_count and the day's row of article_view_days);
 * the active-users ranking on crafted data; scheduled publishing, invisible
 * on every path until its time and purged from every cache by
 * `publish-scheduled` once it comes.
 */
import { randomUUID } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { registeredCommands, type CommandIO } from '../../jobs/commands'
import { ACTIVE_USERS_KEY, readActiveUsers, rankActiveUsers } from '../../src/plugins/activity/activeUsers'
import { onInvalidate } from '../../src/lib/cacheBus'
import { dayIn } from '../../src/plugins/activity/day'
import { lastActiveRecorderOf } from '../../src/plugins/activity/lastActive'
import { poolOf } from '../../src/lib/pool'
import { searchArticles } from '../../src/plugins/search/searchArticles'
import { applyViewBatch, displayedViewCount, viewCounterOf } from '../../src/plugins/activity/views'
import { graphqlRequest } from './graphql-client'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { createCast, PASSWORD, register } from '../helpers/users'
import { waitUntil } from '../helpers/waitUntil'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>
const quiet: CommandIO = { log: () => {}, progress: () => {} }
const run = (name: string) => registeredCommands(t.payload).schedules.find((s) => s.name === name)!.run(t.payload, quiet)
const query = async <R>(sql: string, params: unknown[] = []) => (await poolOf(t.payload).query(sql, params)).rows as R[]

function article(title: string, data: Record<string, unknown> = {}) {
  return t.payload.create({ collection: 'articles', data: { title, format: 'markdown', markdown: `${title} body`, status: 'published', author: cast.author.id, ...data } as never })
}

beforeAll(async () => {
  // WORKER=off: no in-process minute scheduler. The scheduled-publishing test runs publish-scheduled
  // itself and counts what each run finds; the scheduler's own run at a minute's start, falling inside
  // the test's 15 s, moved the watermark first (CI: "1 scheduled" expected, "0" found).
  t = await createTestPayload({ APP_TIMEZONE: 'Asia/Tokyo', WORKER: 'off' })
  cast = await createCast(t.payload)
})
afterAll(async () => {
  await t?.destroy()
})

describe('views without Redis', () => {
  it('adds each batch once to view_count and to the day in APP_TIMEZONE', async () => {
    const { id } = await article('Counted')
    const counter = viewCounterOf(t.payload)!
    await Promise.all(Array.from({ length: 1000 }, async () => counter.hit(id)))
    expect(await displayedViewCount(t.payload, { id, viewCount: 0 })).toBe(1000)
    await counter.flush()
    const [row] = await query<{ view_count: string; views: number; day: string }>(
      `select a.view_count, d.views, to_char(d.day, 'YYYY-MM-DD') as day from articles a join article_view_days d on d.article_id = a.id where a.id = $1`,
      [id],
    )
    expect(row).toEqual({ view_count: '1000', views: 1000, day: dayIn('Asia/Tokyo') })
    // A batch retried after an unclear failure is not counted twice.
    const batch = { id: randomUUID(), day: '2026-01-02', counts: new Map([[id, 5]]) }
    await applyViewBatch(poolOf(t.payload), batch)
    await applyViewBatch(poolOf(t.payload), batch)
    expect((await t.payload.findByID({ collection: 'articles', id })).viewCount).toBe(1005)
    expect(await run('sync-article-view-count')).toMatch(/nothing to sync/)
  })
})

describe('last-active without Redis', () => {
  it('is written to users.actived_at by the background flush, not by the request', async () => {
    const { token } = await t.payload.login({ collection: 'users', data: { email: 'reader@example.test', password: PASSWORD } })
    const browser = new Browser(t.payload, t.databaseName)
    await browser.request('/api/users/me', { headers: { authorization: `JWT ${token}` } })
    const [before] = await query<{ actived_at: Date | null }>('select actived_at from users where id = $1', [cast.reader.id])
    expect(before!.actived_at).toBeNull()
    const touched = lastActiveRecorderOf(t.payload)!.unflushed(cast.reader.id)!
    // Shown at once all the same.
    expect((await t.payload.findByID({ collection: 'users', id: cast.reader.id })).activedAt).toBe(new Date(touched).toISOString())
    await lastActiveRecorderOf(t.payload)!.flush()
    const [after] = await query<{ actived_at: Date }>('select actived_at from users where id = $1', [cast.reader.id])
    expect(after!.actived_at.getTime()).toBe(touched)
  })
})

describe('active users', () => {
  it('ranks articles × 4 + replies × 1 of the last 7 days: drafts, scheduled, old and deleted users count for nothing; ties by id', async () => {
    const pool = poolOf(t.payload)
    // A clean slate for the ranking: the articles above are by `author`.
    await pool.query('delete from articles')
    const u = {
      a: await register(t.payload, 'ana@example.test'),
      b: await register(t.payload, 'ben@example.test'),
      c: await register(t.payload, 'cai@example.test'),
      gone: await register(t.payload, 'gone@example.test'),
    }
    const day = 24 * 60 * 60 * 1000
    const at = (ms: number) => new Date(Date.now() - ms).toISOString()
    // ana: 2 articles = 8. ben: 1 article + 4 replies = 8 (a tie with ana; ana registered first). cai: 5 replies = 5.
    const a1 = await article('a1', { author: u.a.id, publishedAt: at(day) })
    await article('a2', { author: u.a.id, publishedAt: at(2 * day) })
    await article('a-draft', { author: u.a.id, status: 'draft' })
    await article('a-old', { author: u.a.id, publishedAt: at(8 * day) })
    await article('a-scheduled', { author: u.a.id, publishedAt: new Date(Date.now() + day).toISOString() })
    await article('b1', { author: u.b.id, publishedAt: at(3 * day) })
    const draft = await article('c-draft', { author: u.c.id, status: 'draft' })
    for (let i = 0; i < 4; i++) await t.payload.create({ collection: 'replies', data: { article: a1.id, body: `b${i}`, author: u.b.id } as never })
    for (let i = 0; i < 5; i++) await t.payload.create({ collection: 'replies', data: { article: a1.id, body: `c${i}`, author: u.c.id } as never })
    // Replies on a draft (written by SQL: the API refuses them) and old replies count for nothing.
    await pool.query(`insert into replies (article_id, author_id, body) values ($1, $2, 'x'), ($1, $2, 'y')`, [draft.id, u.c.id])
    await pool.query(`update replies set created_at = now() - interval '8 days' where body = 'c4'`)
    // A deleted user's articles and replies vanish from the ranking.
    await article('gone1', { author: u.gone.id })
    await article('gone2', { author: u.gone.id })
    await article('gone3', { author: u.gone.id })
    await t.payload.delete({ collection: 'users', id: u.gone.id })

    const ranked = await rankActiveUsers(t.payload)
    expect(ranked.map((r) => [r.name, r.score])).toEqual([
      ['ana', 8],
      ['ben', 8],
      ['cai', 4],
    ])
  })

  it('is computed by calculate-active-users, and recomputed on read once older than 65 minutes', async () => {
    expect(await run('calculate-active-users')).toBe('3 active user(s) ranked')
    const stored = await readActiveUsers(t.payload)
    expect(stored.users).toHaveLength(3)
    // A list from 66 minutes ago (no scheduler ran since) is recomputed by the next read.
    await t.payload.kv.set(ACTIVE_USERS_KEY, { computedAt: new Date(Date.now() - 66 * 60 * 1000).toISOString(), users: [] })
    expect((await readActiveUsers(t.payload)).users).toHaveLength(3)
    // One from 60 minutes ago is still served as it is.
    await t.payload.kv.set(ACTIVE_USERS_KEY, { computedAt: new Date(Date.now() - 60 * 60 * 1000).toISOString(), users: [] })
    expect((await readActiveUsers(t.payload)).users).toHaveLength(0)
  })
})

describe('scheduled publishing', () => {
  it('keeps a future article from the public on every path until its time, then shows it; publish-scheduled purges the caches', async () => {
    // A first run sets the watermark (it looks back a day: the articles of the tests above).
    await run('publish-scheduled')
    const soon = new Date(Date.now() + 15_000)
    const scheduled = await article('Tomorrow’s news', { publishedAt: soon.toISOString() })
    const browser = new Browser(t.payload, t.databaseName)
    const asPublic = { overrideAccess: false, user: null } as const

    async function visibility() {
      const [local, count, rest, list, graphql, search] = await Promise.all([
        t.payload.findByID({ collection: 'articles', id: scheduled.id, disableErrors: true, ...asPublic }),
        t.payload.count({ collection: 'articles', where: { id: { equals: scheduled.id } }, ...asPublic }),
        browser.request(`/api/articles/${scheduled.id}`),
        browser.request(`/api/articles?where[id][equals]=${scheduled.id}`).then((r) => r.json()),
        graphqlRequest(t, `{ Articles(where: { id: { equals: ${scheduled.id} } }) { totalDocs } Article(id: ${scheduled.id}) { title } }`),
        searchArticles(t.payload, { q: 'Tomorrow' }),
      ])
      return {
        local: Boolean(local),
        count: count.totalDocs,
        rest: rest.status,
        list: list.totalDocs,
        graphql: graphql.data?.Articles?.totalDocs,
        search: search.docs.some((h) => h.id === scheduled.id),
      }
    }

    expect(await visibility()).toEqual({ local: false, count: 0, rest: 404, list: 0, graphql: 0, search: false })
    // Its author sees it in the admin (and over REST), scheduled.
    const own = await t.payload.findByID({ collection: 'articles', id: scheduled.id, overrideAccess: false, user: { ...cast.author, collection: 'users' } })
    expect(own.publishedAt).toBe(soon.toISOString())
    // Nobody can reply to it yet.
    await expect(
      t.payload.create({ collection: 'replies', data: { article: scheduled.id, body: 'early' }, overrideAccess: false, user: { ...cast.reader, collection: 'users' } }),
    ).rejects.toThrow(/invalid: Article/)

    const purged: string[][] = []
    const stop = onInvalidate((tags) => purged.push(tags))
    expect(await run('publish-scheduled')).toMatch(/^0 scheduled/)

    // When its time comes it is public, without anyone saving it.
    await waitUntil(async () => Date.now() > soon.getTime(), { what: 'the publish time' })
    expect(await visibility()).toEqual({ local: true, count: 1, rest: 200, list: 1, graphql: 1, search: true })
    expect(await run('publish-scheduled')).toMatch(/^1 scheduled/)
    expect(purged.flat()).toEqual(expect.arrayContaining([`article:${scheduled.id}`, 'list', `user:${cast.author.id}`]))
    // The next minute's run has nothing left to do.
    expect(await run('publish-scheduled')).toMatch(/^0 scheduled/)
    stop()
  })
})
