/**
 * What the mail benches share (reply-latency, mail-throughput): a real SMTP server on loopback that
 * records when each mail carrying `<marker>-<n>` arrives, and a fresh database of the bench's own,
 * with the environment that sends mail to that server through pg-boss.
 */
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { SMTPServer } from 'smtp-server'

import { admin, adminUrl } from './adminDatabase'

export type MailBench = {
  /** Arrival time (performance.now()) of each mail, by the number after its marker. */
  arrivals: Map<string, number>
  /** Stops the SMTP server and drops the database. */
  close: () => Promise<void>
}

export async function startMailBench(name: string, marker: string, env: Record<string, string> = {}): Promise<MailBench> {
  const arrivals = new Map<string, number>()
  const pattern = new RegExp(`${marker}-(\\d+)`)
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _s, done) {
      let raw = ''
      stream.on('data', (c) => (raw += c))
      stream.on('end', () => {
        const found = raw.match(pattern)
        if (found) arrivals.set(found[1]!, performance.now())
        done()
      })
    },
  })
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()))
  const smtpPort = (smtp.server.address() as { port: number }).port

  const dbName = `inkwell_bench_${name}_${Date.now().toString(36)}`
  await admin(`create database "${dbName}"`)
  Object.assign(process.env, {
    DATABASE_URL: adminUrl().replace(/\/postgres$/, `/${dbName}`),
    QUEUE_CONNECTION: 'pgboss',
    MAIL_DRIVER: 'smtp',
    MAIL_HOST: '127.0.0.1',
    MAIL_PORT: String(smtpPort),
    PAYLOAD_SECRET: 'bench-secret-not-for-production-0123456789',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'inkwell-bench-')),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production', // as `npm start` and `npm run worker` run it: development mode adds Payload's own checks to every write
    ...env,
  })
  return {
    arrivals,
    close: async () => {
      smtp.close()
      await admin(`drop database if exists "${dbName}" with (force)`)
    },
  }
}

/**
 * The bench's reader is new and writes many replies fast: the moderation plugin's default rules
 * would hold them (a writer's first replies, the spam score), and a held reply mails nobody. The
 * owner's settings let every reply through, as on a blog with moderation off.
 */
export async function publishEveryReply(payload: import('payload').Payload): Promise<void> {
  if (!payload.config.globals.some((g) => g.slug === 'site-settings' && g.fields.some((f) => 'name' in f && f.name === 'moderation'))) return
  await payload.updateGlobal({
    slug: 'site-settings',
    data: { moderation: { holdAll: false, holdFirstReplies: 0, holdLinks: 0, spamThreshold: 1, holdThreshold: 1 } } as never,
  })
}
