/**
 * A real SMTP server on loopback (npm smtp-server) that keeps what it receives.
 * It can be stopped and started again on the same port to test a mail outage.
 */
import PostalMime, { type Email } from 'postal-mime'
import { SMTPServer } from 'smtp-server'

import { freePort } from './app'

/** A received message, parsed; `to` keeps the shape tests compare against. */
export type ReceivedMail = Email & { to: { text: string } }

export type Inbox = {
  port: number
  messages: ReceivedMail[]
  /** Resolves when `count` messages have arrived in total. */
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedMail[]>
  stop: () => Promise<void>
  start: () => Promise<void>
}

export async function startInbox(): Promise<Inbox> {
  const port = await freePort()
  const messages: ReceivedMail[] = []
  const waiters: { count: number; resolve: () => void }[] = []
  let server: SMTPServer | undefined

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, _session, callback) {
          streamToBuffer(stream)
            .then((raw) => PostalMime.parse(raw))
            .then((email) => {
              const mail = { ...email, to: { text: (email.to ?? []).map((a) => a.address).join(', ') } } as ReceivedMail
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

function streamToBuffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (c: Buffer) => chunks.push(c))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
  })
}

export function smtpEnv(inbox: Inbox): Record<string, string> {
  return { MAIL_DRIVER: 'smtp', MAIL_HOST: '127.0.0.1', MAIL_PORT: String(inbox.port), MAIL_ENCRYPTION: 'null' }
}
