/**
 * Issue 9 for accounts: input limits before any pattern, the cross-site rule
 * on the site's account forms, e-mail and password changes on every path
 * (REST, the Local API as a user), who may change whom, reset tokens at rest,
 * and the absolute session lifetime. Real PostgreSQL and a real SMTP server.
 */
import { createHash } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { apiErrorOf } from '../../frontend/src/lib/api/errors'
import type { User } from '../../src/payload-types'
import { readHiddenAuthFields } from '../../src/lib/pool'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser, validUser } from './accounts-client'
import { Mailbox, recipient } from './accounts-mailbox'
import { graphqlRequest } from './graphql-client'

let t: TestPayload
const mailbox = new Mailbox()
const browser = () => new Browser(t.payload, t.databaseName)
const PASSWORD = validUser('x').password
const users: Record<string, User> = {}

async function userByEmail(email: string) {
  return (await readHiddenAuthFields(t.payload, { email })) as Record<string, any>
}

async function signedIn(email: string, password = PASSWORD): Promise<Browser> {
  const b = browser()
  expect((await b.login(email, password)).status).toBe(200)
  return b
}

beforeAll(async () => {
  const port = await mailbox.listen()
  t = await createTestPayload({ MAIL_DRIVER: 'smtp', MAIL_HOST: '127.0.0.1', MAIL_PORT: String(port) })
  for (const email of ['owner@example.test', 'admin@example.test', 'reader@example.test', 'locked@example.test', 'writer@example.test']) {
    expect((await browser().register(validUser(email))).status).toBe(201)
    users[email.split('@')[0]!] = (await userByEmail(email)) as User
  }
})
afterAll(async () => {
  await t?.destroy()
  await mailbox.close()
})

describe('input length before any pattern', () => {
  const huge = 'a'.repeat(40 * 1024) + '@'

  it('answers a 40 KB anonymous e-mail with a 400 naming the field and the limit, on every account form', async () => {
    for (const path of ['/api/accounts/login', '/api/accounts/register', '/api/accounts/password/forgot']) {
      const reply = await browser().request(path, { json: { email: huge, password: 'whatever-it-is' } })
      expect(reply.status, path).toBe(400)
      expect(apiErrorOf(await reply.json()).fields.email, path).toBe('Use at most 254 characters for email.')
    }
  })

  it('bounds the e-mail field of the collection itself (REST PATCH) before its pattern', async () => {
    const reader = await signedIn('reader@example.test')
    const reply = await reader.request(`/api/users/${users.reader!.id}`, {
      method: 'PATCH',
      json: { email: huge + 'example.test', currentPassword: PASSWORD },
    })
    expect(reply.status).toBe(400)
    expect(JSON.stringify(await reply.json())).toMatch(/at most 254 characters/)
  })
})

describe('cross-site posts to the account forms', () => {
  it('refuses a login posted from another site (Origin), and one marked cross-site by Sec-Fetch-Site', async () => {
    const fromOrigin = await browser().request('/api/accounts/login', {
      json: { email: 'reader@example.test', password: PASSWORD },
      origin: 'https://evil.test',
    })
    expect(fromOrigin.status).toBe(403)
    expect(fromOrigin.headers.getSetCookie().some((c) => c.startsWith('payload-token='))).toBe(false)
    const fromFetchMetadata = await browser().request('/api/accounts/login', {
      json: { email: 'reader@example.test', password: PASSWORD },
      origin: null,
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expect(fromFetchMetadata.status).toBe(403)
  })

  it('refuses a cross-site logout, so a foreign page cannot sign a reader out', async () => {
    const reader = await signedIn('reader@example.test')
    const reply = await reader.request('/api/accounts/logout', { json: {}, origin: 'https://evil.test' })
    expect(reply.status).toBe(403)
    expect(await reader.me()).not.toBeNull()
    expect((await reader.request('/api/accounts/logout', { json: {} })).status).toBe(200)
    expect(await reader.me()).toBeNull()
  })
})

describe('e-mail and password changes', () => {
  it('REST PATCH /api/users/:id needs the current password, applies the policy, and mails the old address', async () => {
    const writer = await signedIn('writer@example.test')
    const path = `/api/users/${users.writer!.id}`
    const without = await writer.request(path, { method: 'PATCH', json: { password: 'a-brand-new-secret' } })
    expect(without.status).toBe(400)
    expect((await without.json()).errors[0].data.errors[0]).toMatchObject({ path: 'currentPassword' })

    const weak = await writer.request(path, { method: 'PATCH', json: { password: 'too-short', currentPassword: PASSWORD } })
    expect(weak.status).toBe(400)
    expect(JSON.stringify(await weak.json())).toMatch(/at least 12 characters/)

    const arriving = mailbox.next()
    const right = await writer.request(path, { method: 'PATCH', json: { password: 'a-brand-new-secret', currentPassword: PASSWORD } })
    expect(right.status).toBe(200)
    const mail = await arriving
    expect(recipient(mail)).toBe('writer@example.test')
    expect(mail.text).toMatch(/password of your account was changed/)

    // The e-mail change is told to the address the account had before.
    const told = mailbox.next()
    const moved = await writer.request(path, {
      method: 'PATCH',
      json: { email: 'writer2@example.test', currentPassword: 'a-brand-new-secret' },
    })
    expect(moved.status).toBe(200)
    const notice = await told
    expect(recipient(notice)).toBe('writer@example.test')
    expect(notice.text).toMatch(/changed to writer2@example\.test/)
  })

  it('holds for the Local API without overrideAccess too (the path GraphQL takes)', async () => {
    const reader = await t.payload.findByID({ collection: 'users', id: users.reader!.id, depth: 0 })
    const attempt = t.payload.update({
      collection: 'users',
      id: reader.id,
      data: { password: 'local-api-secret' },
      overrideAccess: false,
      user: { ...reader, collection: 'users' },
    })
    await expect(attempt).rejects.toMatchObject({ name: 'ValidationError', data: { errors: [{ path: 'currentPassword' }] } })
  })

  it('holds over GraphQL (updateUser), for the account itself and for the site owner on someone else', async () => {
    const reader = await signedIn('reader@example.test')
    const asReader = { cookie: reader.cookieHeader(), origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' }
    const own = await graphqlRequest(t, `mutation { updateUser(id: ${users.reader!.id}, data: { password: "graphql-chosen-secret" }) { id } }`, asReader)
    expect(JSON.stringify(own.errors)).toMatch(/currentPassword|current password/i)
    const owner = await signedIn('owner@example.test')
    const asOwner = { cookie: owner.cookieHeader(), origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' }
    const other = await graphqlRequest(
      t,
      `mutation { updateUser(id: ${users.reader!.id}, data: { email: "graphql-takeover@example.test", currentPassword: "${PASSWORD}" }) { id } }`,
      asOwner,
    )
    expect(other.errors?.length).toBeGreaterThan(0)
    expect((await userByEmail('reader@example.test')).id).toBe(users.reader!.id)
    // The reader's own password still signs in: neither mutation changed anything.
    await signedIn('reader@example.test')
  })

  it("lets nobody set another user's password or e-mail, not even the site owner", async () => {
    const owner = await signedIn('owner@example.test')
    for (const data of [{ password: 'owner-chose-this' }, { email: 'taken-over@example.test' }]) {
      const reply = await owner.request(`/api/users/${users.reader!.id}`, { method: 'PATCH', json: { ...data, currentPassword: PASSWORD } })
      expect(reply.status, JSON.stringify(data)).toBe(403)
      expect(JSON.stringify(await reply.json())).toMatch(/reset link/)
    }
    expect((await userByEmail('reader@example.test')).id).toBe(users.reader!.id)
  })

  it('keeps a users.manage holder (administrator) off users holding what the manager lacks (the site owner)', async () => {
    const admin = await signedIn('admin@example.test')
    const onOwner = await admin.request(`/api/users/${users.owner!.id}`, { method: 'PATCH', json: { name: 'Renamed by admin' } })
    expect([403, 404]).toContain(onOwner.status)
    expect((await userByEmail('owner@example.test')).name).toBe('Ada Lovelace')
    const deleteOwner = await admin.request(`/api/users/${users.owner!.id}`, { method: 'DELETE' })
    expect([403, 404]).toContain(deleteOwner.status)
    // A reader holds nothing the administrator lacks.
    const onReader = await admin.request(`/api/users/${users.reader!.id}`, { method: 'PATCH', json: { name: 'Renamed reader' } })
    expect(onReader.status).toBe(200)
  })

  it('counts wrong current passwords toward the lockout', async () => {
    const locked = await signedIn('locked@example.test')
    for (let i = 0; i < 5; i++) {
      const reply = await locked.request('/api/accounts/profile', {
        json: { newPassword: 'another-good-secret', newPasswordConfirm: 'another-good-secret', currentPassword: `wrong-guess-${i}` },
      })
      expect(reply.status).toBe(400)
    }
    expect((await userByEmail('locked@example.test')).lockUntil).toBeTruthy()
    expect((await browser().login('locked@example.test', PASSWORD)).status).toBe(401)
  })
})

describe('reset tokens', () => {
  it('are stored as SHA-256 digests: the mailed token works, the stored value does not', async () => {
    const arriving = mailbox.next()
    expect((await browser().request('/api/accounts/password/forgot', { json: { email: 'owner@example.test' } })).status).toBe(200)
    const mail = await arriving
    const token = new URL(mail.text!.match(/http:\/\/localhost:3000\/password\/reset\?token=\S+/)![0]).searchParams.get('token')!
    const stored = (await userByEmail('owner@example.test')).resetPasswordToken
    expect(stored).not.toBe(token)
    expect(stored).toBe(createHash('sha256').update(token).digest('hex'))

    const withStored = await browser().request('/api/accounts/password/reset', {
      json: { token: stored, password: 'owner-new-secret', passwordConfirm: 'owner-new-secret' },
    })
    expect(withStored.status).toBe(400)
    const changed = mailbox.next()
    const withMailed = await browser().request('/api/accounts/password/reset', {
      json: { token, password: 'owner-new-secret', passwordConfirm: 'owner-new-secret' },
    })
    expect(withMailed.status).toBe(200)
    expect((await changed).text).toMatch(/password of your account was changed/)
  })
})

describe('absolute session lifetime (SESSION_MAX_AGE, 30 days by default)', () => {
  it('refuses a refresh whose token would outlive the sign-in time plus the maximum age', async () => {
    const admin = await signedIn('admin@example.test')
    expect((await admin.request('/api/users/refresh-token', { json: {} })).status).toBe(200)

    const stored = await userByEmail('admin@example.test')
    const aged = new Date(Date.now() - 25 * 24 * 60 * 60 * 1000).toISOString()
    await t.payload.db.updateOne({
      collection: 'users',
      id: stored.id,
      data: { sessions: stored.sessions.map((s: Record<string, unknown>) => ({ ...s, createdAt: aged })) },
    })
    const refused = await admin.request('/api/users/refresh-token', { json: {} })
    expect(refused.status).toBe(403)
  })
})
