/**
 * Issue 32 §5 at its real length: the SMTP server stops for 10 minutes
 * (SMTP_OUTAGE_SECONDS, default 600; shorter for a quick try) while readers
 * keep replying, then comes back, and every notification mail arrives exactly
 * once, none dead-lettered. Unlike tests/integration/jobs-mail-outage.test.ts,
 * which squeezes the outage into ~40 s with shortened retries, this one runs
 * production's retry settings (.env.example): the first retry after 5 s,
 * doubling with jitter, none more than 600 s apart, for 24 h. So a job that
 * failed just before SMTP returned waits up to 10 more minutes: the whole run
 * takes up to ~20 minutes, hence `npm run test:long`, not `npm test`.
 *
 * pg-boss with two worker sets on one database (the instance's own and a
 * second, as a second worker process would be).
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { retriesFor } from '../../jobs/retryPolicy'
import { startQueue, type RunningQueue } from '../../jobs/worker'
import { getEnv } from '../../src/lib/env'
import { deadLetterCount } from '../../src/plugins/jobs/admin/queueConsoleData'
import { writeArticle } from '../helpers/articles'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { startInbox, smtpEnv, type Inbox } from '../helpers/smtp'
import { createCast } from '../helpers/users'
import { waitUntil } from '../helpers/waitUntil'

const OUTAGE_SECONDS = Number(process.env.SMTP_OUTAGE_SECONDS ?? 600)
/** Production's settings, as .env.example documents them. */
const PRODUCTION_RETRY = { JOB_RETRY_WINDOW_SECONDS: '86400', JOB_RETRY_DELAY_SECONDS: '5', JOB_RETRY_MAX_DELAY_SECONDS: '600' }
/** About 60 replies spread over the outage, whatever its length. */
const REPLIES = 60
const REPLY_EVERY_MS = Math.max(250, (OUTAGE_SECONDS * 1000) / REPLIES)

let t: TestPayload
let inbox: Inbox
let db: pg.Client
let secondWorker: RunningQueue | undefined
let cast: Awaited<ReturnType<typeof createCast>>
let articleId: number

beforeAll(async () => {
  if (!(OUTAGE_SECONDS > 0)) throw new Error(`SMTP_OUTAGE_SECONDS must be a positive number of seconds (got ${process.env.SMTP_OUTAGE_SECONDS})`)
  inbox = await startInbox()
  t = await createTestPayload({ ...smtpEnv(inbox), QUEUE_CONNECTION: 'pgboss', ...PRODUCTION_RETRY })
  const env = getEnv()
  secondWorker = await startQueue(t.payload, { connection: 'pgboss', databaseUrl: env.databaseUrl, work: true, timeZone: env.timeZone, retry: env.jobRetry })
  db = new pg.Client({ connectionString: t.databaseUrl })
  db.on('error', () => {})
  await db.connect()
  cast = await createCast(t.payload)
  articleId = (await writeArticle(t.payload, cast.author, 'A long outage')).id
})
afterAll(async () => {
  await secondWorker?.stop()
  await db?.end()
  await t?.destroy()
  await inbox?.stop()
})

const reply = (body: string) => t.payload.create({ collection: 'replies', data: { article: articleId, body }, overrideAccess: false, user: cast.reader })
const text = (i: number) => `Reply ${i} during the long outage.`
/** The notification mails of this test's replies (the cast's own mails, sent before, are not counted). */
const replyMails = () => inbox.messages.filter((m) => m.text?.includes('during the long outage'))

async function notificationJobs() {
  const { rows } = await db.query(`select state::text as state, retry_count, retry_limit from pgboss.job where name = 'notify-article-author'`)
  return rows as { state: string; retry_count: number; retry_limit: number }[]
}

const log = (line: string) => console.log(`[smtp-outage +${Math.round((Date.now() - started) / 1000)} s] ${line}`)
let started = Date.now()

describe(`the SMTP server down for ${OUTAGE_SECONDS} s under replies, production retry settings`, () => {
  it(
    'delivers every notification exactly once after the server returns, none dead-lettered',
    async () => {
      const policy = getEnv().jobRetry
      expect(policy).toEqual({ windowSeconds: 86_400, delaySeconds: 5, maxDelaySeconds: 600 })
      started = Date.now()
      await inbox.stop()
      log(`SMTP stopped; ${REPLIES} replies, one every ${Math.round(REPLY_EVERY_MS)} ms`)

      const ids: number[] = []
      for (let i = 0; i < REPLIES; i++) {
        ids.push((await reply(text(i))).id)
        await new Promise((r) => setTimeout(r, REPLY_EVERY_MS))
      }
      const outageLeft = OUTAGE_SECONDS * 1000 - (Date.now() - started)
      if (outageLeft > 0) await new Promise((r) => setTimeout(r, outageLeft))

      const during = await notificationJobs()
      log(`outage over: ${during.length} jobs, tries so far ${Math.min(...during.map((j) => j.retry_count))}–${Math.max(...during.map((j) => j.retry_count))}, states ${[...new Set(during.map((j) => j.state))].join(', ')}`)
      expect(during).toHaveLength(REPLIES)
      expect(during.every((j) => j.retry_limit === retriesFor(policy))).toBe(true)
      expect(during.every((j) => ['created', 'retry', 'active'].includes(j.state))).toBe(true)
      expect(replyMails()).toHaveLength(0)
      expect(await deadLetterCount(t.payload)).toBe(0)

      await inbox.start()
      const back = Date.now()
      log('SMTP started again')
      // The longest wait is one capped backoff (600 s) plus pg-boss's polling.
      await waitUntil(async () => (await notificationJobs()).every((j) => j.state === 'completed'), {
        what: 'every notification job to complete',
        timeoutMs: (policy.maxDelaySeconds + 120) * 1000,
        everyMs: 2_000,
      })
      log(`every job completed ${Math.round((Date.now() - back) / 1000)} s after SMTP returned; ${replyMails().length} mails`)

      for (let i = 0; i < REPLIES; i++) expect(inbox.messages.filter((m) => m.text?.includes(text(i))), text(i)).toHaveLength(1)
      expect(replyMails()).toHaveLength(REPLIES)
      expect(await deadLetterCount(t.payload)).toBe(0)
      const { docs } = await t.payload.find({ collection: 'notifications', where: { reply: { in: ids } }, limit: REPLIES * 2, overrideAccess: true })
      expect(docs).toHaveLength(REPLIES)
      expect(docs.every((n) => Boolean(n.mailedAt))).toBe(true)
    },
    (OUTAGE_SECONDS + 600 + 300) * 1000,
  )
})
