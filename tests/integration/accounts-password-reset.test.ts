import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser, validUser } from './accounts-client'
import { Mailbox, recipient } from './accounts-mailbox'
import { apiErrorOf } from '../../frontend/src/lib/api/errors'

let t: TestPayload
const mailbox = new Mailbox()
const browser = () => new Browser(t.payload, t.databaseName)

beforeAll(async () => {
  const port = await mailbox.listen()
  t = await createTestPayload({ MAIL_DRIVER: 'smtp', MAIL_HOST: '127.0.0.1', MAIL_PORT: String(port), MAIL_FROM_NAME: 'Inkwell Test' })
  for (const email of ['owner@example.test', 'admin@example.test', 'reader@example.test']) {
    expect((await browser().register(validUser(email))).status).toBe(201)
  }
})
afterAll(async () => {
  await t?.destroy()
  await mailbox.close()
})

describe('password reset by e-mail', () => {
  it('mails a one-time link (text and HTML, site name, absolute URL) that sets a new password and signs out other sessions', async () => {
    const elsewhere = browser()
    await elsewhere.login('reader@example.test', validUser('x').password)
    expect(await elsewhere.me()).not.toBeNull()

    const arriving = mailbox.next()
    const reply = await browser().request('/api/accounts/password/forgot', { json: { email: 'Reader@Example.test' } })
    expect(reply.status).toBe(200)
    const mail = await arriving
    expect(recipient(mail)).toBe('reader@example.test')
    expect(mail.from?.name).toBe('Inkwell Test')
    expect(mail.subject).toBe('Reset your Inkwell password')
    expect(mail.text).toMatch(/Inkwell account/)
    expect(mail.html).toMatch(/<a href="http:\/\/localhost:3000\/password\/reset\?token=/)
    const link = mail.text!.match(/http:\/\/localhost:3000\/password\/reset\?token=\S+/)![0]
    const token = new URL(link).searchParams.get('token')!

    const b = browser()
    const mismatch = await b.request('/api/accounts/password/reset', { json: { token, password: 'a-new-secret', passwordConfirm: 'other-secret' } })
    expect(apiErrorOf(await mismatch.json()).fields.passwordConfirm).toBeDefined()
    const reset = await b.request('/api/accounts/password/reset', { json: { token, password: 'a-new-secret', passwordConfirm: 'a-new-secret' } })
    expect(reset.status).toBe(200)
    expect((await b.me())?.email).toBe('reader@example.test')
    expect(await elsewhere.me()).toBeNull()
    expect((await browser().login('reader@example.test', 'a-new-secret')).status).toBe(200)

    const again = await browser().request('/api/accounts/password/reset', { json: { token, password: 'third-secret', passwordConfirm: 'third-secret' } })
    expect(again.status).toBe(400)
    expect(apiErrorOf(await again.json()).fields.token).toMatch(/expired or was already used/)
  })

  it('answers the same for an unknown address and sends nothing', async () => {
    const knownMail = mailbox.next()
    const known = await browser().request('/api/accounts/password/forgot', { json: { email: 'admin@example.test' } })
    await knownMail
    const count = mailbox.received.length
    const unknown = await browser().request('/api/accounts/password/forgot', { json: { email: 'nobody@example.test' } })
    expect(unknown.status).toBe(known.status)
    expect(await unknown.json()).toEqual(await known.json())
    // A mail to a known address afterwards arrives next: nothing was queued for the unknown one.
    const arriving = mailbox.next()
    await browser().request('/api/accounts/password/forgot', { json: { email: 'owner@example.test' } })
    const mail = await arriving
    expect(mailbox.received.length).toBe(count + 1)
    expect(recipient(mail)).toBe('owner@example.test')
  })

  it('refuses an expired link', async () => {
    const arriving = mailbox.next()
    await browser().request('/api/accounts/password/forgot', { json: { email: 'owner@example.test' } })
    const token = new URL((await arriving).text!.match(/http:\S+/)![0]).searchParams.get('token')!
    await t.payload.db.updateMany({
      collection: 'users',
      where: { email: { equals: 'owner@example.test' } },
      data: { resetPasswordExpiration: new Date(Date.now() - 1000).toISOString() },
    })
    const reply = await browser().request('/api/accounts/password/reset', { json: { token, password: 'late-secret-42', passwordConfirm: 'late-secret-42' } })
    expect(reply.status).toBe(400)
  })

  it('makes Payload’s own forgot-password route mail the reader site’s link too', async () => {
    const arriving = mailbox.next()
    const reply = await browser().request('/api/users/forgot-password', { json: { email: 'admin@example.test' } })
    expect(reply.status).toBe(200)
    const mail = await arriving
    expect(mail.subject).toBe('Reset your Inkwell password')
    expect(mail.html).toMatch(/href="http:\/\/localhost:3000\/password\/reset\?token=/)
  })
})
