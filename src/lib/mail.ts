/**
 * E-mail through @payloadcms/email-nodemailer. `MAIL_DRIVER=log` writes every
 * mail (headers, text, links) to the application log; `smtp` sends it.
 */
import { nodemailerAdapter } from '@payloadcms/email-nodemailer'
import nodemailer from 'nodemailer'
import type { Transport } from 'nodemailer'

import type { Env } from './env'
import { metrics } from './metrics'
import { onDestroy } from './payloadPatches'

type Logger = { info: (obj: unknown, msg?: string) => void }

/** A nodemailer transport that logs instead of sending. */
export function logTransport(getLogger: () => Logger): Transport {
  return {
    name: 'inkwell-log',
    version: '1',
    send(mail, callback) {
      const { from, to, subject, text, html } = mail.data as Record<string, unknown>
      const body = String(text ?? '')
      const links = [...new Set([...body.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => m[0]))]
      const headers = { from, to, subject, date: new Date().toUTCString(), messageId: mail.message.messageId() }
      getLogger().info(
        { mail: { headers, text: body, links, hasHtml: Boolean(html) } },
        `mail to ${String(to)}: ${String(subject)}\n${body}\nlinks: ${links.join(' ')}`,
      )
      callback(null, { envelope: mail.message.getEnvelope(), messageId: mail.message.messageId() } as never)
    },
  }
}

export function smtpOptions(mail: Env['mail']) {
  return {
    host: mail.host,
    port: mail.port,
    secure: mail.encryption === 'ssl',
    requireTLS: mail.encryption === 'tls',
    ignoreTLS: mail.encryption === 'null',
    auth: mail.username ? { user: mail.username, pass: mail.password ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    // MAIL_POOL_SIZE > 0: that many connections kept open and reused, each sending up to 100 mails,
    // instead of a connection (and TLS handshake) per mail. Off by default: a kept connection outlives
    // the server's own stop (it waits for open connections), which surprises servers run by hand.
    ...(mail.poolSize > 0 ? { pool: true, maxConnections: mail.poolSize, maxMessages: 100 } : {}),
  }
}

/** Counts every mail handed to the transport by outcome (inkwell_mails_total{outcome="sent"|"failed"}). */
function counted<T extends { sendMail: (...args: never[]) => Promise<unknown> }>(transport: T): T {
  const send = transport.sendMail.bind(transport) as (...args: unknown[]) => Promise<unknown>
  transport.sendMail = (async (...args: unknown[]) => {
    try {
      const info = await send(...args)
      metrics().mails.inc({ outcome: 'sent' })
      return info
    } catch (error) {
      metrics().mails.inc({ outcome: 'failed' })
      throw error
    }
  }) as T['sendMail']
  return transport
}

export function emailAdapter(env: Env, getLogger: () => Logger) {
  const transport = counted(
    env.mail.driver === 'smtp'
      ? nodemailer.createTransport(smtpOptions(env.mail))
      : nodemailer.createTransport(logTransport(getLogger)),
  )
  const adapter = nodemailerAdapter({
    defaultFromAddress: env.mail.fromAddress,
    defaultFromName: env.mail.fromName,
    transport,
    skipVerify: true,
  })
  // The pooled transport's open connections close with the instance (they would keep the process alive).
  return adapter.then((init): typeof init => (args) => {
    onDestroy(args.payload, () => transport.close())
    return init(args)
  })
}
