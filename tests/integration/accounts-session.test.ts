import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { t as message } from '../../src/lib/i18n'
import { RATE_LIMITS } from '../../src/lib/rateLimit'
import { Browser, validUser } from './accounts-client'
import { apiErrorOf } from '../../frontend/src/lib/api/errors'

let t: TestPayload
const browser = () => new Browser(t.payload, t.databaseName)
const PASSWORD = validUser('x').password

beforeAll(async () => {
  t = await createTestPayload()
  for (const email of ['owner@example.test', 'admin@example.test', 'reader@example.test', 'locked@example.test']) {
    expect((await browser().register(validUser(email))).status).toBe(201)
  }
})
afterAll(() => t?.destroy())

describe('login', () => {
  it.each([
    ['/articles/1/hello?page=2#replies', '/articles/1/hello?page=2#replies'],
    ['/profile', '/profile'],
    ['https://evil.test', '/'],
    ['//evil.test', '/'],
    ['/\\evil.test', '/'],
    ['javascript:alert(1)', '/'],
    ['', '/'],
  ])('returns to %s only when it is a path on this site (→ %s)', async (next, expected) => {
    const reply = await browser().login('reader@example.test', PASSWORD, { next })
    expect(reply.status).toBe(200)
    expect((await reply.json()).redirect).toBe(expected)
  })

  it('keeps the session for the browser session only, unless "remember me" is ticked', async () => {
    const plain = await browser().login('reader@example.test', PASSWORD)
    const plainCookie = plain.headers.getSetCookie().find((c) => c.startsWith('payload-token='))!
    expect(plainCookie).not.toMatch(/Expires=/i)
    expect(plainCookie).toMatch(/HttpOnly/)
    expect(plainCookie).toMatch(/SameSite=Lax/)
    const remembered = await browser().login('reader@example.test', PASSWORD, { remember: 'on' })
    expect(remembered.headers.getSetCookie().find((c) => c.startsWith('payload-token='))).toMatch(/Expires=/i)
  })

  it('starts a fresh session on login and closes the one the browser held before', async () => {
    const b = browser()
    await b.login('reader@example.test', PASSWORD)
    const before = b.cookies.get('payload-token')!
    await b.login('reader@example.test', PASSWORD)
    expect(b.cookies.get('payload-token')).not.toBe(before)
    const stale = browser()
    stale.cookies.set('payload-token', before)
    expect(await stale.me()).toBeNull()
    expect((await b.me())?.email).toBe('reader@example.test')
  })

  it('says the credentials are wrong without saying which', async () => {
    const unknown = await browser().login('nobody@example.test', PASSWORD)
    const wrong = await browser().login('reader@example.test', 'not-the-password')
    expect(unknown.status).toBe(401)
    expect(await unknown.json()).toEqual(await wrong.json())
  })

  it('locks the account after five failures, saying so in the one answer every failed login gets', async () => {
    const b = browser()
    for (let i = 0; i < 5; i++) await b.login('locked@example.test', 'wrong-password')
    const reply = await b.login('locked@example.test', PASSWORD)
    // The right password no longer opens it; the answer is the one an unknown address gets (no enumeration).
    expect(reply.status).toBe(401)
    expect(apiErrorOf(await reply.json()).message).toMatch(/After 5 failed attempts an account is locked for 10 minutes/)
    const unknown = await browser().login('nobody@example.test', PASSWORD)
    expect(apiErrorOf(await unknown.json()).message).toBe(message('en', 'error.login.failed'))
  })
})

describe('logout', () => {
  it('invalidates the session on the server, not only the cookie', async () => {
    const b = browser()
    await b.login('reader@example.test', PASSWORD)
    const token = b.cookies.get('payload-token')!
    const reply = await b.request('/api/accounts/logout', { method: 'POST' })
    expect(reply.status).toBe(200)
    expect(b.cookies.has('payload-token')).toBe(false)
    const replay = browser()
    replay.cookies.set('payload-token', token)
    expect(await replay.me()).toBeNull()
  })
})

describe('CSRF', () => {
  it('ignores the session cookie on a POST from a foreign Origin', async () => {
    const b = browser()
    await b.login('reader@example.test', PASSWORD)
    // Refused outright (403) by the cross-site rule, before the session is even looked at.
    const forged = await b.request('/api/accounts/profile', { json: { name: 'Hacked' }, origin: 'http://evil.test' })
    expect(forged.status).toBe(403)
    const forgedRest = await b.request('/api/users/me', { method: 'GET', headers: { origin: 'http://evil.test' } })
    expect((await forgedRest.json()).user).toBeNull()
    const own = await b.request('/api/accounts/profile', { json: { name: 'Reader' } })
    expect(own.status).toBe(200)
    const { docs } = await t.payload.find({ collection: 'users', where: { email: { equals: 'reader@example.test' } }, overrideAccess: true })
    expect(docs[0]!.name).toBe('Reader')
  })
})

describe('rate limits per IP', () => {
  it('refuses logins beyond the limit from one address, while another address still gets in', async () => {
    const b = browser()
    b.ip = '203.0.113.7'
    for (let i = 0; i < RATE_LIMITS.login.points; i++) await b.login('nobody@example.test', PASSWORD)
    const limited = await b.login('reader@example.test', PASSWORD)
    expect(limited.status).toBe(429)
    expect(JSON.stringify(await limited.json())).toMatch(/Too many attempts/)
    expect((await browser().login('reader@example.test', PASSWORD)).status).toBe(200)
  })

  it('limits password-reset requests too', async () => {
    const b = browser()
    b.ip = '203.0.113.8'
    for (let i = 0; i < RATE_LIMITS.passwordReset.points; i++) {
      expect((await b.request('/api/accounts/password/forgot', { json: { email: 'nobody@example.test' } })).status).toBe(200)
    }
    expect((await b.request('/api/accounts/password/forgot', { json: { email: 'nobody@example.test' } })).status).toBe(429)
  })
})
