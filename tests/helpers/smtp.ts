/**
 * The one SMTP server of the tests: a real one on loopback (npm smtp-server).
 * What it receives is parsed (postal-mime), kept in arrival order and handed to
 * whoever waits for it. It can be stopped and started again on the same port
 * to test a mail outage, and told to hold a message unanswered to test a
 * sender that dies mid-send.
 */
import PostalMime, { type Email } from 'postal-mime'
import { SMTPServer } from 'smtp-server'

import { freePort } from './app'

export type ReceivedMail = Email
/** @deprecated the accounts tests' name for ReceivedMail */
export type ParsedMail = ReceivedMail

export type InboxOptions = {
  /** Return true to never answer this message: the sender stays blocked mid-send. */
  hold?: (mail: ReceivedMail) => boolean
}

export type Inbox = {
  port: number
  /** Delivered messages, in arrival order (held ones are not delivered). */
  messages: ReceivedMail[]
  /** Messages received but held unanswered. */
  held: ReceivedMail[]
  /** Resolves when `count` messages have been delivered in total. */
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedMail[]>
  /** Resolves with the next message delivered after this call. */
  next: () => Promise<ReceivedMail>
  stop: () => Promise<void>
  start: () => Promise<void>
}

export const recipient = (mail: ReceivedMail) => mail.to?.[0]?.address

export async function startInbox(options: InboxOptions = {}): Promise<Inbox> {
  const port = await freePort()
  const messages: ReceivedMail[] = []
  const held: ReceivedMail[] = []
  const countWaiters: { count: number; resolve: () => void }[] = []
  const nextWaiters: ((mail: ReceivedMail) => void)[] = []
  let server: SMTPServer | undefined

  const deliver = (mail: ReceivedMail) => {
    messages.push(mail)
    nextWaiters.shift()?.(mail)
    for (const w of countWaiters.filter((w) => messages.length >= w.count)) w.resolve()
  }

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, _session, callback) {
          streamToBuffer(stream)
            .then((raw) => PostalMime.parse(raw))
            .then((mail) => {
              if (options.hold?.(mail)) return void held.push(mail) // never answered
              deliver(mail)
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
    held,
    waitFor: (count, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        if (messages.length >= count) return resolve(messages)
        const timer = setTimeout(() => reject(new Error(`expected ${count} mails, got ${messages.length}`)), timeoutMs)
        countWaiters.push({ count, resolve: () => (clearTimeout(timer), resolve(messages)) })
      }),
    next: () => new Promise((resolve) => nextWaiters.push(resolve)),
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

/** The mail settings that send to `inbox`. */
export function smtpEnv(inbox: Pick<Inbox, 'port'>): Record<string, string> {
  return { MAIL_DRIVER: 'smtp', MAIL_HOST: '127.0.0.1', MAIL_PORT: String(inbox.port), MAIL_ENCRYPTION: 'null' }
}

/** The accounts tests' interface to the same inbox: `listen()` for the port, `next()`, `received`. */
export class Mailbox {
  received: ReceivedMail[] = []
  private inbox?: Inbox

  async listen(): Promise<number> {
    this.inbox = await startInbox()
    this.received = this.inbox.messages
    return this.inbox.port
  }

  next(): Promise<ReceivedMail> {
    return this.inbox!.next()
  }

  close(): Promise<void> {
    return this.inbox?.stop() ?? Promise.resolve()
  }
}
