/**
 * The debug-only user switcher, with APP_DEBUG=true: present on inkwell.test,
 * absent on example.com; a switched session is the switched user's on every
 * path (REST, GraphQL, the Local API's payload.auth), carries the owner so
 * switching back needs no password, cannot be forged or moved to another
 * session, and every switch is logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { signSwitch, SWITCH_COOKIE } from '../../src/plugins/userSwitch/switchCookie'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { DEBUG_BASE, onHost, sessionIdOf, signedIn } from '../helpers/userSwitch'
import { createCast } from '../helpers/users'
import { graphqlRequest } from './graphql-client'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>
const SECRET = 'test-secret-not-for-production'

beforeAll(async () => {
  t = await createTestPayload({ APP_DEBUG: 'true', BASE_URL: DEBUG_BASE, PAYLOAD_SECRET: SECRET })
  cast = await createCast(t.payload)
})
afterAll(async () => {
  await t?.destroy()
})

const EMAILS = { owner: 'owner@example.test', admin: 'admin@example.test', author: 'author@example.test', otherAuthor: 'author2@example.test', reader: 'reader@example.test' }
const owner = () => signedIn(t.payload, t.databaseName, EMAILS.owner)
const meOf = async (b: Browser) => (await (await b.request('/api/users/me')).json()).user as { id: number } | null
const logRows = async () =>
  (await t.payload.find({ collection: 'user-switches', sort: 'createdAt', limit: 100, depth: 0, overrideAccess: true })).docs.map((d) => ({
    actor: d.actor,
    target: d.target,
    action: d.action,
  }))

describe('where the switcher exists', () => {
  it('is present on inkwell.test for the owner: the panel lists users', async () => {
    const b = await owner()
    const reply = await b.request('/api/user-switch')
    expect(reply.status).toBe(200)
    const state = await reply.json()
    expect(state).toMatchObject({ current: { id: cast.owner.id }, switchedFrom: null })
    expect(state.users.map((u: { id: number }) => u.id)).toEqual(expect.arrayContaining([cast.reader.id, cast.author.id]))
  })

  it.each(['http://example.com:3000', 'http://blog.example.com', 'http://localhost:3000', 'http://inkwell.testing', 'http://test'])(
    'is absent on %s: 404, and a switch cookie changes nothing',
    async (base) => {
      const b = await owner()
      const there = onHost(t.payload, t.databaseName, b, base)
      expect((await there.request('/api/user-switch')).status).toBe(404)
      expect((await there.request('/api/user-switch', { json: { user: cast.reader.id }, origin: null })).status).toBe(404)
      expect((await there.request('/api/user-switch/back', { json: {}, origin: null })).status).toBe(404)
      there.cookies.set(SWITCH_COOKIE, signSwitch(SECRET, { ownerId: cast.owner.id, sid: sessionIdOf(b), targetId: cast.reader.id }))
      expect((await meOf(there))?.id).toBe(cast.owner.id)
    },
  )
})

describe('switching', () => {
  it('the owner browses as another user on every path, and switches back without a password', async () => {
    const b = await owner()
    const ownSid = sessionIdOf(b)
    const switched = await b.request('/api/user-switch', { json: { user: cast.reader.id } })
    expect(switched.status).toBe(200)
    expect(switched.headers.get('cache-control')).toBe('no-store')
    const cookie = switched.headers.getSetCookie().find((c) => c.startsWith(`${SWITCH_COOKIE}=`))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)

    // REST
    expect((await meOf(b))?.id).toBe(cast.reader.id)
    expect((await b.request('/api/user-switches')).status).toBe(403) // the reader may not read the log
    // GraphQL
    const gql = await graphqlRequest(t, '{ meUser { user { id } } }', {
      cookie: b.cookieHeader(),
      host: 'inkwell.test:3000',
      origin: DEBUG_BASE,
      'sec-fetch-site': 'same-origin',
    })
    expect(gql.data?.meUser?.user?.id, JSON.stringify(gql)).toBe(cast.reader.id)
    // Local API
    // (as the reader site calls it: the session token as a JWT credential, the switch cookie and the host)
    const local = await t.payload.auth({
      headers: new Headers({
        authorization: `JWT ${b.cookies.get('payload-token')}`,
        cookie: `${SWITCH_COOKIE}=${b.cookies.get(SWITCH_COOKIE)}`,
        host: 'inkwell.test:3000',
      }),
    })
    expect(local.user?.id).toBe(cast.reader.id)
    expect((local.user as { switchedFrom?: unknown }).switchedFrom).toMatchObject({ id: cast.owner.id })
    // The panel now shows the banner's data.
    expect(await (await b.request('/api/user-switch')).json()).toMatchObject({ current: { id: cast.reader.id }, switchedFrom: { id: cast.owner.id } })
    // Writes are the reader's too: a reply is stamped with the reader as author.
    const article = await t.payload.create({ collection: 'articles', data: { title: 'Switch target', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id } as never })
    const reply = await b.request('/api/replies', { json: { article: article.id, body: 'Written while switched' } })
    expect(reply.status).toBe(201)
    expect((await reply.json()).doc.author).toMatchObject({ id: cast.reader.id })

    // A token refresh keeps the owner's own session (and the switch).
    expect((await b.request('/api/users/refresh-token', { json: {} })).status).toBe(200)
    expect(sessionIdOf(b)).toBe(ownSid)
    expect((await meOf(b))?.id).toBe(cast.reader.id)

    const back = await b.request('/api/user-switch/back', { json: {} })
    expect(back.status).toBe(200)
    expect(b.cookies.has(SWITCH_COOKIE)).toBe(false)
    expect((await meOf(b))?.id).toBe(cast.owner.id)
    expect(sessionIdOf(b)).toBe(ownSid)
    expect((await b.request('/api/user-switches')).status).toBe(200)
  })

  it('logs every switch and switch back: who, whom, when', async () => {
    const before = (await logRows()).length
    const b = await owner()
    await b.request('/api/user-switch', { json: { user: cast.author.id } })
    await b.request('/api/user-switch', { json: { user: cast.reader.id } }) // straight to another: back from the author, then to the reader
    await b.request('/api/user-switch/back', { json: {} })
    const rows = (await logRows()).slice(before)
    expect(rows).toEqual([
      { actor: cast.owner.id, target: cast.author.id, action: 'switch' },
      { actor: cast.owner.id, target: cast.author.id, action: 'back' },
      { actor: cast.owner.id, target: cast.reader.id, action: 'switch' },
      { actor: cast.owner.id, target: cast.reader.id, action: 'back' },
    ])
    const { docs } = await t.payload.find({ collection: 'user-switches', sort: '-createdAt', limit: 1, overrideAccess: true })
    expect(Date.now() - new Date(docs[0]!.createdAt).getTime()).toBeLessThan(60_000)
    // Nobody writes or deletes the log through the API, not even the owner.
    expect((await b.request('/api/user-switches', { json: { actor: cast.owner.id, action: 'switch' } })).status).toBe(403)
    expect((await b.request(`/api/user-switches/${docs[0]!.id}`, { method: 'DELETE' })).status).toBe(403)
  })

  it('rejects an unknown or malformed user with 400 naming the field', async () => {
    const b = await owner()
    for (const user of [999999, 'abc', '', '1; drop table users']) {
      const reply = await b.request('/api/user-switch', { json: { user } })
      expect(reply.status).toBe(400)
      expect(JSON.stringify(await reply.json())).toContain('user')
    }
    expect((await meOf(b))?.id).toBe(cast.owner.id)
  })

  it('a switch request from another site is refused', async () => {
    const b = await owner()
    expect((await b.request('/api/user-switch', { json: { user: cast.reader.id }, origin: 'http://evil.example' })).status).toBe(403)
    expect((await meOf(b))?.id).toBe(cast.owner.id)
  })
})

describe('who may switch', () => {
  it.each(['reader', 'author', 'admin'] as const)('a %s (no users.switch) cannot: 403, and stays themselves', async (who) => {
    const b = await signedIn(t.payload, t.databaseName, EMAILS[who])
    expect((await b.request('/api/user-switch')).status).toBe(403)
    expect((await b.request('/api/user-switch', { json: { user: cast.owner.id } })).status).toBe(403)
    expect(b.cookies.has(SWITCH_COOKIE)).toBe(false)
    expect((await meOf(b))?.id).toBe(cast[who].id)
  })

  it('an anonymous visitor gets 401', async () => {
    const anonymous = new Browser(t.payload, t.databaseName, undefined, DEBUG_BASE)
    expect((await anonymous.request('/api/user-switch')).status).toBe(401)
  })

  it('a forged switch cookie is ignored: wrong key, own session, or the owner’s cookie in another session', async () => {
    const ownerBrowser = await owner()
    await ownerBrowser.request('/api/user-switch', { json: { user: cast.author.id } })
    const stolen = ownerBrowser.cookies.get(SWITCH_COOKIE)!

    const reader = await signedIn(t.payload, t.databaseName, EMAILS.reader)
    const sid = sessionIdOf(reader)
    for (const value of [
      signSwitch('another-secret-of-the-same-length!', { ownerId: cast.reader.id, sid, targetId: cast.owner.id }),
      signSwitch(SECRET, { ownerId: cast.reader.id, sid, targetId: cast.owner.id }), // correctly signed, but the reader may not switch
      stolen, // the owner's real cookie, in the reader's session
      stolen.replace(/^[^.]+/, Buffer.from(JSON.stringify([cast.owner.id, sessionIdOf(ownerBrowser), cast.owner.id])).toString('base64url')),
      'garbage',
    ]) {
      reader.cookies.set(SWITCH_COOKIE, value)
      expect((await meOf(reader))?.id).toBe(cast.reader.id)
    }
  })

  it('the switch ends with the owner’s session: signing out while switched signs the owner out', async () => {
    const b = await owner()
    await b.request('/api/user-switch', { json: { user: cast.reader.id } })
    const switchCookie = b.cookies.get(SWITCH_COOKIE)!
    const ownSid = sessionIdOf(b)
    expect((await b.request('/api/users/logout', { json: {} })).status).toBe(200)
    expect(await meOf(b)).toBeNull()
    // The owner's session is gone from the database, so the old cookies together are worth nothing.
    const owner2 = await t.payload.findByID({ collection: 'users', id: cast.owner.id, overrideAccess: true, showHiddenFields: true })
    expect((owner2 as { sessions?: { id: string }[] }).sessions?.some((s) => s.id === ownSid)).toBe(false)
    expect(switchCookie).toBeTruthy()
  })

  it('losing users.switch ends the switch at once', async () => {
    // A user granted users.switch through a role of their own, which then loses it.
    const role = await t.payload.create({ collection: 'roles', data: { slug: 'switcher', label: 'Switcher', permissions: [] } as never })
    const switchPermission = (await t.payload.find({ collection: 'permissions', where: { slug: { equals: 'users.switch' } }, limit: 1 })).docs[0]!
    await t.payload.update({ collection: 'roles', id: role.id, data: { permissions: [switchPermission.id] } as never })
    await t.payload.update({ collection: 'users', id: cast.otherAuthor.id, data: { roles: [role.id] } as never })
    const holder = await signedIn(t.payload, t.databaseName, EMAILS.otherAuthor)
    expect((await holder.request('/api/user-switch', { json: { user: cast.reader.id } })).status).toBe(200)
    expect((await meOf(holder))?.id).toBe(cast.reader.id)
    await t.payload.update({ collection: 'roles', id: role.id, data: { permissions: [] } as never })
    expect((await meOf(holder))?.id).toBe(cast.otherAuthor.id)
  })
})
