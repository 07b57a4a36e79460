/**
 * Issue 27 item 3: a password change or reset revokes the account's personal
 * access tokens, unless the account holder keeps them with the change (the
 * profile form's box, `keepAccessTokens` on any path), and the "account
 * changed" mail says which happened, naming the tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { cli, json } from '../helpers/cliClient'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser, validUser } from './accounts-client'
import { Mailbox, recipient } from './accounts-mailbox'

let t: TestPayload
const mailbox = new Mailbox()
const browser = () => new Browser(t.payload, t.databaseName)
const send = (path: string, init: Parameters<typeof cli>[3] = {}) => cli(t.payload, t.databaseName, path, init)
const PASSWORD = validUser('x').password

async function signedIn(email: string, password = PASSWORD): Promise<string> {
  return (await t.payload.login({ collection: 'users', data: { email, password } })).token!
}

async function makeToken(jwt: string, name: string): Promise<{ id: number; token: string; publicId: string }> {
  const reply = await send('/api/access-tokens', { method: 'POST', headers: { ...json({}).headers, authorization: `JWT ${jwt}` }, body: JSON.stringify({ name, scope: 'write' }) })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body.doc
}

async function tokenWorks(token: string): Promise<boolean> {
  const reply = await send('/api/users/me', { headers: { authorization: `Bearer ${token}` } })
  return Boolean(reply.body?.user)
}

beforeAll(async () => {
  const port = await mailbox.listen()
  t = await createTestPayload({ MAIL_DRIVER: 'smtp', MAIL_HOST: '127.0.0.1', MAIL_PORT: String(port) })
  for (const email of ['owner@example.test', 'admin@example.test', 'changer@example.test', 'keeper@example.test', 'resetter@example.test']) {
    expect((await browser().register(validUser(email))).status).toBe(201)
  }
}, 120_000)
afterAll(async () => {
  await t?.destroy()
  await mailbox.close()
})

describe('access tokens and password changes', () => {
  it('a password changed on the profile form revokes the tokens, and the mail says so', async () => {
    const jwt = await signedIn('changer@example.test')
    const [first, second] = [await makeToken(jwt, 'backup'), await makeToken(jwt, 'deploy')]
    expect(await tokenWorks(first.token)).toBe(true)
    const b = browser()
    expect((await b.login('changer@example.test', PASSWORD)).status).toBe(200)
    const arriving = mailbox.next()
    const reply = await b.request('/api/accounts/profile', {
      json: { newPassword: 'a-brand-new-password', newPasswordConfirm: 'a-brand-new-password', currentPassword: PASSWORD },
    })
    expect(reply.status, await reply.text()).toBe(200)
    const mail = await arriving
    expect(recipient(mail)).toBe('changer@example.test')
    expect(mail.text).toMatch(/password of your account was changed/)
    expect(mail.text).toMatch(/2 personal access tokens .* were revoked/)
    expect(mail.text).toContain(`iwt_${first.publicId}_`)
    expect(mail.text).toContain(`iwt_${second.publicId}_`)
    expect(await tokenWorks(first.token)).toBe(false)
    expect(await tokenWorks(second.token)).toBe(false)
    expect((await t.payload.count({ collection: 'access-tokens', where: { publicId: { in: [first.publicId, second.publicId] } } })).totalDocs).toBe(0)
  })

  it('kept when the change asks for it (REST PATCH with keepAccessTokens), and the mail says they still work', async () => {
    const jwt = await signedIn('keeper@example.test')
    const token = await makeToken(jwt, 'kept script')
    const me = await t.payload.find({ collection: 'users', where: { email: { equals: 'keeper@example.test' } } })
    const arriving = mailbox.next()
    const reply = await send(`/api/users/${me.docs[0]!.id}`, {
      method: 'PATCH',
      headers: { ...json({}).headers, authorization: `JWT ${jwt}` },
      body: JSON.stringify({ password: 'another-new-password', currentPassword: PASSWORD, keepAccessTokens: true }),
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body.doc).not.toHaveProperty('keepAccessTokens')
    const mail = await arriving
    expect(mail.text).toMatch(new RegExp(`personal access token \\(iwt_${token.publicId}_…\\) was kept.*still works`))
    expect(await tokenWorks(token.token)).toBe(true)
  })

  it('a password chosen through a reset link revokes the tokens, and the mail says so', async () => {
    const jwt = await signedIn('resetter@example.test')
    const token = await makeToken(jwt, 'cron')
    const linkMail = mailbox.next()
    expect((await browser().request('/api/accounts/password/forgot', { json: { email: 'resetter@example.test' } })).status).toBe(200)
    const link = (await linkMail).text!.match(/http:\/\/localhost:3000\/password\/reset\?token=\S+/)![0]
    const changed = mailbox.next()
    const reset = await browser().request('/api/accounts/password/reset', {
      json: { token: new URL(link).searchParams.get('token'), password: 'reset-new-password', passwordConfirm: 'reset-new-password' },
    })
    expect(reset.status, await reset.text()).toBe(200)
    const mail = await changed
    expect(mail.text).toMatch(new RegExp(`personal access token \\(iwt_${token.publicId}_…\\) was revoked`))
    expect(await tokenWorks(token.token)).toBe(false)
  })
})
