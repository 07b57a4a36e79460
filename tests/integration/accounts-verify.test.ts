/** REGISTER_VERIFY_EMAIL=true: a reader registering through the form confirms the address before signing in. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { register } from '../helpers/users'
import { Browser, validUser } from './accounts-client'
import { Mailbox, recipient } from './accounts-mailbox'
import { apiErrorOf } from '../../frontend/src/lib/api/errors'

let t: TestPayload
const mailbox = new Mailbox()
const browser = () => new Browser(t.payload, t.databaseName)
const PASSWORD = validUser('x').password

beforeAll(async () => {
  const port = await mailbox.listen()
  t = await createTestPayload({ MAIL_DRIVER: 'smtp', MAIL_HOST: '127.0.0.1', MAIL_PORT: String(port), REGISTER_VERIFY_EMAIL: 'true' })
})
afterAll(async () => {
  await t?.destroy()
  await mailbox.close()
})

describe('e-mail verification (REGISTER_VERIFY_EMAIL=true)', () => {
  it('does not sign the new reader in; the mailed link confirms the address, then sign-in works', async () => {
    const b = browser()
    const arriving = mailbox.next()
    const reply = await b.register(validUser('new@example.test'))
    expect(reply.status).toBe(201)
    expect((await reply.json()).verify).toBe(true)
    expect(b.cookies.has('payload-token')).toBe(false)

    const mail = await arriving
    expect(recipient(mail)).toBe('new@example.test')
    expect(mail.subject).toBe('Confirm your e-mail address for Inkwell')
    expect(mail.html).toMatch(/href="http:\/\/localhost:3000\/verify-email\?token=/)
    const token = new URL(mail.text!.match(/http:\/\/localhost:3000\/verify-email\?token=\S+/)![0]).searchParams.get('token')!

    const early = await b.login('new@example.test', PASSWORD)
    expect(early.status).toBe(403)
    expect(apiErrorOf(await early.json()).message).toMatch(/Confirm your e-mail address first/)

    const wrong = await b.request('/api/accounts/verify', { json: { token: 'not-a-token' } })
    expect(wrong.status).toBe(400)
    expect((await b.request('/api/accounts/verify', { json: { token } })).status).toBe(200)
    expect((await b.login('new@example.test', PASSWORD)).status).toBe(200)
    expect((await b.me())?.email).toBe('new@example.test')
  })

  it('lets users created by the application (seed, admin, Local API) sign in at once, without a mail', async () => {
    const before = mailbox.received.length
    await register(t.payload, 'seeded@example.test')
    expect((await browser().login('seeded@example.test', 'correct horse battery staple')).status).toBe(200)
    expect(mailbox.received.length).toBe(before)
  })
})
