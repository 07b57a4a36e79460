/**
 * A real SMTP server on loopback (npm smtp-server) that keeps what it receives.
 * It can be stopped and started again on the same port to test a mail outage.
 */
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

import { freePort } from './app'

export type Inbox = {
  port: number
  messages: ParsedMail[]
  /** Resolves when `count` messages have arrived in total. */
  waitFor: (count: number, timeoutMs?: number) => Promise<ParsedMail[]>
  stop: () => Promise<void>
  start: () => Promise<void>
}

export async function startInbox(): Promise<Inbox> {
  const port = await freePort()
  const messages: ParsedMail[] = []
  const waiters: { count: number; resolve: () => void }[] = []
  let server: SMTPServer | undefined

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, _session, callback) {
          simpleParser(stream)
            .then((mail) => {
              messages.push(mail)
              for (const w of waiters.filter((w) => messages.length >= w.count)) w.resolve()
              callback()
            })
            .catch(callback)
        },
      })
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => resolve())
    })
  await listen()

  return {
    port,
    messages,
    waitFor: (count, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        if (messages.length >= count) return resolve(messages)
        const timer = setTimeout(() => reject(new Error(`expected ${count} mails, got ${messages.length}`)), timeoutMs)
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(messages)) })
      }),
    stop: () => new Promise((resolve) => (server ? server.close(() => resolve()) : resolve())),
    start: listen,
  }
}

export function smtpEnv(inbox: Inbox): Record<string, string> {
  return { MAIL_DRIVER: 'smtp', MAIL_HOST: '127.0.0.1', MAIL_PORT: String(inbox.port), MAIL_ENCRYPTION: 'null' }
}
