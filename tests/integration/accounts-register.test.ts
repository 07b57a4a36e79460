import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import sharp from 'sharp'

import { CAPTCHA_HEIGHT, CAPTCHA_WIDTH } from '../../src/plugins/accounts/captcha'
import { poolOf } from '../../src/lib/pool'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser, captchaAnswer, validUser } from './accounts-client'
import { apiErrorOf } from '../../frontend/src/lib/api/errors'

let t: TestPayload
const browser = () => new Browser(t.payload, t.databaseName)
const userCount = () => t.payload.count({ collection: 'users', overrideAccess: true }).then((r) => r.totalDocs)

async function roleSlugsOf(email: string): Promise<string[]> {
  const { docs } = await t.payload.find({ collection: 'users', where: { email: { equals: email } }, depth: 1, overrideAccess: true })
  return (docs[0]?.roles ?? []).map((r) => (typeof r === 'object' ? r.slug : String(r)))
}

beforeAll(async () => {
  t = await createTestPayload()
})
afterAll(() => t?.destroy())

/** The picture's bytes as served (the client's text() would mangle binary). */
async function fetchCaptchaBytes(b: Browser): Promise<Buffer> {
  const { handleEndpoints } = await import('payload')
  const response = await handleEndpoints({
    config: t.payload.config,
    request: new Request('http://localhost:3000/api/accounts/captcha', { headers: { 'x-forwarded-for': b.ip, 'sec-fetch-site': 'same-origin' } }),
    payloadInstanceCacheKey: t.databaseName,
  })
  return Buffer.from(await response.arrayBuffer())
}

describe('captcha', () => {
  it('serves a PNG picture (no SVG path data reaches the browser) and binds its answer with an HttpOnly cookie', async () => {
    const b = browser()
    const reply = await b.request('/api/accounts/captcha')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toBe('image/png')
    expect(reply.headers.get('cache-control')).toBe('no-store')
    const { width, height, format } = await sharp(await fetchCaptchaBytes(b)).metadata()
    expect({ width, height, format }).toEqual({ width: CAPTCHA_WIDTH, height: CAPTCHA_HEIGHT, format: 'png' })
    const cookie = reply.headers.getSetCookie().find((c) => c.startsWith('inkwell-captcha='))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
  })

  it('is reported with every other mistake of the form at once (issue 26 §5)', async () => {
    const b = browser()
    await b.solveCaptcha()
    const empty = await b.request('/api/accounts/register', { json: {} })
    expect(empty.status).toBe(400)
    expect(Object.keys(apiErrorOf(await empty.json()).fields).sort()).toEqual(['captcha', 'email', 'name', 'password'])

    const answer = await b.solveCaptcha()
    const mismatched = await b.request('/api/accounts/register', {
      json: { email: 'not-an-address', name: 'Someone', password: 'a-long-enough-passphrase', passwordConfirm: 'other', captcha: answer + 'x' },
    })
    expect(Object.keys(apiErrorOf(await mismatched.json()).fields).sort()).toEqual(['captcha', 'email', 'passwordConfirm'])
  })

  it('limits picture generation per IP (429 after 30 in 15 minutes)', async () => {
    const b = browser()
    const statuses: number[] = []
    for (let i = 0; i < 31; i++) statuses.push((await b.request('/api/accounts/captcha')).status)
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true)
    expect(statuses[30]).toBe(429)
  })

  it('refuses a wrong answer, and the challenge cannot be tried again', async () => {
    const b = browser()
    const answer = await b.solveCaptcha()
    const wrong = await b.request('/api/accounts/register', { json: { ...validUser('wrong@example.test'), captcha: answer + 'x' } })
    expect(wrong.status).toBe(400)
    expect(apiErrorOf(await wrong.json()).fields.captcha).toMatch(/do not match/)
    const retried = await b.request('/api/accounts/register', { json: { ...validUser('wrong@example.test'), captcha: answer } })
    expect(apiErrorOf(await retried.json()).fields.captcha).toMatch(/expired/)
    expect(await userCount()).toBe(0)
  })

  it('accepts a right answer only once', async () => {
    const b = browser()
    const answer = await b.solveCaptcha()
    const token = b.cookies.get('inkwell-captcha')!
    const first = await b.request('/api/accounts/register', { json: { ...validUser('once@example.test'), captcha: answer.toUpperCase() } })
    expect(first.status).toBe(201)
    // Another browser replaying the same cookie and answer gets nowhere.
    const replay = browser()
    replay.cookies.set('inkwell-captcha', token)
    const second = await replay.request('/api/accounts/register', { json: { ...validUser('twice@example.test'), captcha: answer } })
    expect(second.status).toBe(400)
    expect(apiErrorOf(await second.json()).fields.captcha).toMatch(/expired/)
  })

  it('refuses an answer older than five minutes', async () => {
    const b = browser()
    const answer = await b.solveCaptcha()
    await poolOf(t.payload).query(`update captcha_challenges set expires_at = now() - interval '1 second' where token = $1`, [b.cookies.get('inkwell-captcha')])
    const reply = await b.request('/api/accounts/register', { json: { ...validUser('late@example.test'), captcha: answer } })
    expect(reply.status).toBe(400)
    expect(apiErrorOf(await reply.json()).fields.captcha).toMatch(/expired/)
    expect(await roleSlugsOf('late@example.test')).toEqual([])
  })

  it('is bound to the browser: another browser’s answer does not help', async () => {
    const mine = browser()
    const theirs = browser()
    const theirAnswer = await theirs.solveCaptcha()
    await mine.request('/api/accounts/captcha')
    const myAnswer = await captchaAnswer(t.payload, mine.cookies.get('inkwell-captcha')!)
    const reply = await mine.request('/api/accounts/register', {
      json: { ...validUser('bound@example.test'), captcha: theirAnswer === myAnswer ? theirAnswer + 'z' : theirAnswer },
    })
    expect(reply.status).toBe(400)
  })
})

describe('registration', () => {
  it('names each bad field and creates nothing', async () => {
    const before = await userCount()
    const reply = await browser().register({ email: 'not-an-email', name: '', password: 'short', passwordConfirm: 'short' })
    expect(reply.status).toBe(400)
    const { fields } = apiErrorOf(await reply.json())
    expect(Object.keys(fields).sort()).toEqual(['email', 'name', 'password'])
    const mismatch = await browser().register({ ...validUser('mismatch@example.test'), passwordConfirm: 'something-else' })
    expect(apiErrorOf(await mismatch.json()).fields).toEqual({ passwordConfirm: 'The two passwords differ.' })
    expect(await userCount()).toBe(before)
  })

  it('refuses a taken e-mail on the e-mail field', async () => {
    const reply = await browser().register(validUser('ONCE@example.test'))
    expect(reply.status).toBe(400)
    expect(apiErrorOf(await reply.json()).fields).toEqual({ email: 'An account with this e-mail already exists.' })
  })

  it('signs the new user in with an HttpOnly, SameSite=Lax session cookie', async () => {
    const b = browser()
    const reply = await b.register(validUser('new@example.test'))
    expect(reply.status).toBe(201)
    const cookie = reply.headers.getSetCookie().find((c) => c.startsWith('payload-token='))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).not.toMatch(/Secure/) // BASE_URL is http here
    expect((await b.me())?.email).toBe('new@example.test')
  })

  it('gives roles by the first/second/default rule and ignores roles in the body (mass assignment)', async () => {
    // once@ was the first user (site owner), new@ the third: check the second and a later one.
    expect(await roleSlugsOf('once@example.test')).toEqual(['site-owner'])
    const ownerRole = (await t.payload.find({ collection: 'roles', where: { slug: { equals: 'site-owner' } } })).docs[0]!
    const b = browser()
    const reply = await b.register({ ...validUser('sneaky@example.test'), roles: [ownerRole.id], unreadNotifications: 99 })
    expect(reply.status).toBe(201)
    expect(await roleSlugsOf('sneaky@example.test')).toEqual(['reader'])
  })

  it('refuses a public registration that skips the form (POST /api/users)', async () => {
    const before = await userCount()
    const reply = await browser().request('/api/users', { json: { email: 'bypass@example.test', password: 'analytical-engine', name: 'Bypass' } })
    expect(reply.status).toBe(403)
    expect(await userCount()).toBe(before)
  })

  it('is checked before anything stored is consulted: with a wrong answer, a taken address is not revealed', async () => {
    const b = browser()
    const first = await b.solveCaptcha()
    expect((await b.request('/api/accounts/register', { json: { ...validUser('taken@example.test'), captcha: first } })).status).toBe(201)
    const c = browser()
    const answer = await c.solveCaptcha()
    const reply = await c.request('/api/accounts/register', { json: { ...validUser('taken@example.test'), captcha: answer + 'x' } })
    expect(reply.status).toBe(400)
    expect(Object.keys(apiErrorOf(await reply.json()).fields)).toEqual(['captcha'])
  })
})
