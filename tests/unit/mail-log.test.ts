import nodemailer from 'nodemailer'
import { describe, expect, it } from 'vitest'

import { passwordResetMail } from '../../src/lib/accountMail'
import { logTransport } from '../../src/lib/mail'

describe('MAIL_DRIVER=log', () => {
  it('writes the headers, the text and the links of each mail to the log, and sends nothing', async () => {
    const entries: { obj: any; msg?: string }[] = []
    const logger = { info: (obj: unknown, msg?: string) => void entries.push({ obj, msg }) }
    const mail = passwordResetMail({ siteName: 'Inkwell', baseUrl: 'http://localhost:3000', token: 'abc123' })
    await nodemailer.createTransport(logTransport(() => logger)).sendMail({ from: 'Inkwell <noreply@inkwell.test>', to: 'ada@example.test', ...mail })
    expect(entries).toHaveLength(1)
    const { obj, msg } = entries[0]!
    expect(obj.mail.headers).toMatchObject({ to: 'ada@example.test', subject: 'Reset your Inkwell password' })
    expect(obj.mail.headers.from).toContain('noreply@inkwell.test')
    expect(obj.mail.text).toContain('Open this link within 60 minutes')
    expect(obj.mail.links).toEqual(['http://localhost:3000/password/reset?token=abc123'])
    expect(obj.mail.hasHtml).toBe(true)
    expect(msg).toContain('http://localhost:3000/password/reset?token=abc123')
  })
})
