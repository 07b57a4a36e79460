/** A real SMTP server on loopback for the account tests: what it receives is parsed and handed to whoever waits. */
import type { AddressInfo } from 'node:net'

import PostalMime from 'postal-mime'
import { SMTPServer } from 'smtp-server'

export type ParsedMail = Awaited<ReturnType<typeof PostalMime.parse>>

async function parseMail(stream: NodeJS.ReadableStream): Promise<ParsedMail> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return PostalMime.parse(Buffer.concat(chunks))
}

export const recipient = (mail: ParsedMail) => mail.to?.[0]?.address

/** A real SMTP server on loopback; each received mail is parsed and handed to whoever waits for it. */
export class Mailbox {
  received: ParsedMail[] = []
  private waiters: ((mail: ParsedMail) => void)[] = []
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData: (stream, _session, callback) => {
      parseMail(stream)
        .then((mail) => {
          this.received.push(mail)
          this.waiters.shift()?.(mail)
          callback()
        })
        .catch(callback)
    },
  })

  listen(): Promise<number> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve((this.server.server.address() as AddressInfo).port)))
  }

  next(): Promise<ParsedMail> {
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}

