/**
 * Issue 32 §5: nothing is lost while the mail server is down. pg-boss with two
 * workers on one database; jobs that send mail retry with backoff and jitter
 * for the retry window (JOB_RETRY_*), shortened here: the first retry after
 * 2 s, none more than 8 s apart, so an outage of ~40 s stands for the issue's
 * 10 minutes (production: 5 s first, at most 10 min apart, for 24 h). Two
 * more worker sets join the test's own two: with retries this close together,
 * two workers polling every 0.5 s could hardly try 20 jobs every 8 s (pg-boss
 * serves the oldest first, so the newest would starve, not be lost).
 * A job that does run out of retries is dead-lettered, counted for the admin
 * navigation, shown by the queue console and retried in bulk from it.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { queueOf } from '../../jobs/queue'
import { retriesFor } from '../../jobs/retryPolicy'
import { startQueue, type RunningQueue } from '../../jobs/worker'
import { getEnv } from '../../src/lib/env'
import { deadLetterCount, loadQueueConsole } from '../../src/plugins/jobs/admin/queueConsoleData'
import { writeArticle } from '../helpers/articles'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { startInbox, smtpEnv, type Inbox } from '../helpers/smtp'
import { createCast } from '../helpers/users'
import { waitUntil } from '../helpers/waitUntil'

let t: TestPayload
let inbox: Inbox
let db: pg.Client
let cast: Awaited<ReturnType<typeof createCast>>
let articleId: number
let extraWorkers: RunningQueue[] = []

beforeAll(async () => {
  inbox = await startInbox()
  t = await createTestPayload({
    ...smtpEnv(inbox),
    QUEUE_CONNECTION: 'pgboss',
    JOB_RETRY_DELAY_SECONDS: '2',
    JOB_RETRY_MAX_DELAY_SECONDS: '8',
    JOB_RETRY_WINDOW_SECONDS: '600',
  })
  const env = getEnv()
  // Other worker processes on the same database, as the measurement ran.
  for (let i = 0; i < 3; i++) {
    extraWorkers.push(await startQueue(t.payload, { connection: 'pgboss', databaseUrl: env.databaseUrl, work: true, timeZone: env.timeZone, retry: env.jobRetry }))
  }
  db = new pg.Client({ connectionString: t.databaseUrl })
  db.on('error', () => {})
  await db.connect()
  cast = await createCast(t.payload)
  articleId = (await writeArticle(t.payload, cast.author, 'Outage')).id
}, 120_000)
afterAll(async () => {
  for (const worker of extraWorkers) await worker.stop()
  await db?.end()
  await t?.destroy()
  await inbox?.stop()
})

const reply = (body: string) =>
  t.payload.create({ collection: 'replies', data: { article: articleId, body }, overrideAccess: false, user: cast.reader })
const mailsAbout = (text: string) => inbox.messages.filter((m) => m.text?.includes(text))

async function jobs(replyIds: number[]) {
  const { rows } = await db.query(
    `select singleton_key, state::text as state, retry_count, retry_limit from pgboss.job where name = 'notify-article-author' and singleton_key = any($1)`,
    [replyIds.map((id) => `reply:${id}`)],
  )
  return rows as { singleton_key: string; state: string; retry_count: number; retry_limit: number }[]
}

describe('an SMTP outage under replies (pg-boss, two workers)', () => {
  it('keeps retrying every notification through the outage, then delivers each mail exactly once', async () => {
    const policy = getEnv().jobRetry
    await inbox.stop()
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => reply(`Outage reply ${i}.`)))
    const ids = replies.map((r) => r.id)
    // The queue's policy spans the window: far more than the 5 tries that lost every mail before.
    expect((await jobs(ids))[0]!.retry_limit).toBe(retriesFor(policy))
    expect(retriesFor(policy)).toBeGreaterThan(50)
    // Down until every job was tried 5 times and failed: the old policy's every try, after which it dead-lettered all 20.
    await waitUntil(async () => (await jobs(ids)).length === 20 && (await jobs(ids)).every((j) => j.retry_count >= 5), {
      what: 'every job to have failed 5 times',
      timeoutMs: 75_000,
      everyMs: 500,
    })
    expect((await jobs(ids)).every((j) => j.state === 'retry' || j.state === 'active' || j.state === 'created')).toBe(true)
    expect(await deadLetterCount(t.payload)).toBe(0)
    expect(inbox.messages).toHaveLength(0)

    await inbox.start()
    await waitUntil(async () => (await jobs(ids)).every((j) => j.state === 'completed'), { what: 'every job to complete', timeoutMs: 60_000, everyMs: 500 })
    for (let i = 0; i < 20; i++) expect(mailsAbout(`Outage reply ${i}.`)).toHaveLength(1)
    const { docs } = await t.payload.find({ collection: 'notifications', where: { reply: { in: ids } }, limit: 100, overrideAccess: true })
    expect(docs).toHaveLength(20)
    expect(docs.every((n) => Boolean(n.mailedAt))).toBe(true)
  }, 150_000)

  it('dead-letters a job that ran out of retries, counts it for the navigation, and retries it in bulk from the console', async () => {
    const boss = queueOf(t.payload).boss!
    // A queue configured with a short window (2 tries, 1 s apart) for this job only; the policy comes back afterwards.
    await boss.updateQueue('notify-article-author', { retryLimit: 1, retryDelay: 1, retryBackoff: true, retryDelayMax: 1 } as never)
    await inbox.stop()
    const created = await reply('Dead-lettered reply.')
    await waitUntil(async () => (await deadLetterCount(t.payload)) === 1, { what: 'the job to be dead-lettered', timeoutMs: 30_000, everyMs: 250 })
    const policy = getEnv().jobRetry
    await boss.updateQueue('notify-article-author', { retryLimit: retriesFor(policy), retryDelay: policy.delaySeconds, retryBackoff: true, retryDelayMax: policy.maxDelaySeconds } as never)

    const console = await loadQueueConsole(t.payload)
    if (console.mode !== 'pgboss') throw new Error('expected the pg-boss console')
    expect(console.dead.total).toBe(1)
    expect(console.dead.latest[0]).toMatchObject({ queue: 'notify-article-author', data: JSON.stringify({ replyId: created.id }) })
    expect(console.queues.find((q) => q.name === 'notify-article-author')!.deadLetter).toBe(1)

    await inbox.start()
    const post = async (form: Record<string, string>, token?: string) => {
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
      if (token) headers.authorization = `JWT ${token}`
      return new Browser(t.payload, t.databaseName).request('/api/queue-console/jobs', { method: 'POST', body: new URLSearchParams(form).toString(), headers })
    }
    const login = async (email: string) => (await t.payload.login({ collection: 'users', data: { email, password: 'correct horse battery staple' } })).token!
    expect((await post({ action: 'retry-dead' }, await login('reader@example.test'))).status).toBe(403)
    expect((await post({ action: 'retry-dead', name: 'nope' }, await login('owner@example.test'))).status).toBe(400)
    const retried = await post({ action: 'retry-dead' }, await login('owner@example.test'))
    expect(retried.status).toBe(303)
    expect(await deadLetterCount(t.payload)).toBe(0)
    await waitUntil(async () => mailsAbout('Dead-lettered reply.').length === 1, { what: 'the retried mail' })
    // The mail is recorded as sent just after the server accepted it.
    const docs = await waitUntil(async () => {
      const found = await t.payload.find({ collection: 'notifications', where: { reply: { equals: created.id } }, overrideAccess: true })
      return found.docs[0]?.mailedAt ? found.docs : undefined
    }, { what: 'the notification to be marked mailed' })
    expect(docs).toHaveLength(1)
    // Retrying again finds nothing to do, and the mail is not sent twice.
    expect((await post({ action: 'retry-dead' }, await login('owner@example.test'))).status).toBe(303)
    expect(mailsAbout('Dead-lettered reply.')).toHaveLength(1)
  }, 90_000)
})
