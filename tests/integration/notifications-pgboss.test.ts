/**
 * QUEUE_CONNECTION=pgboss on real PostgreSQL: the job is enqueued through the
 * reply's own transaction, pg-boss workers send the mail to a real SMTP server,
 * retry while it is down, and several workers still run each job once.
 */
import pg from 'pg'
import { commitTransaction, createLocalReq, initTransaction, killTransaction } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { queueOf } from '../../jobs/queue'
import { startQueue } from '../../jobs/worker'
import { getEnv } from '../../src/lib/env'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { startInbox, smtpEnv, type Inbox } from '../helpers/smtp'
import { createCast } from '../helpers/users'
import { waitUntil } from '../helpers/waitUntil'

let t: TestPayload
let inbox: Inbox
let db: pg.Client
let cast: Awaited<ReturnType<typeof createCast>>
let articleId: number

beforeAll(async () => {
  inbox = await startInbox()
  // No script starts the queue: the jobs plugin does, in Payload's onInit.
  t = await createTestPayload({ ...smtpEnv(inbox), QUEUE_CONNECTION: 'pgboss' })
  db = new pg.Client({ connectionString: t.databaseUrl })
  db.on('error', () => {})
  await db.connect()
  cast = await createCast(t.payload)
  articleId = (
    await t.payload.create({
      collection: 'articles',
      data: { title: 'Workers', format: 'markdown', markdown: 'Body', status: 'published', author: cast.author.id },
    })
  ).id
})
afterAll(async () => {
  await db?.end()
  await t?.destroy()
  await inbox?.stop()
})

const reply = (body: string) =>
  t.payload.create({ collection: 'replies', data: { article: articleId, body }, overrideAccess: false, user: cast.reader })

const mailsAbout = (text: string) => inbox.messages.filter((m) => m.text?.includes(text))

async function jobState(replyId: number): Promise<{ state: string; retry_count: number } | undefined> {
  const { rows } = await db.query(`select state, retry_count from pgboss.job where name = 'notify-article-author' and singleton_key = $1`, [`reply:${replyId}`])
  return rows[0]
}

describe('notify the article author (pg-boss)', () => {
  it('delivers the notification and the mail through a worker', async () => {
    const created = await reply('Through the queue')
    await waitUntil(async () => mailsAbout('Through the queue').length === 1, { what: 'the mail' })
    await waitUntil(async () => (await jobState(created.id))?.state === 'completed', { what: 'job completion' })
    const { totalDocs } = await t.payload.count({ collection: 'notifications', where: { reply: { equals: created.id } } })
    expect(totalDocs).toBe(1)
  })

  it('enqueues nothing when the reply’s transaction rolls back', async () => {
    const req = await createLocalReq({ user: { ...cast.reader, collection: 'users' } as never }, t.payload)
    await initTransaction(req)
    const created = await t.payload.create({ collection: 'replies', data: { article: articleId, body: 'Rolled back' }, req })
    await killTransaction(req)
    expect(await jobState(created.id)).toBeUndefined()
    expect(await t.payload.findByID({ collection: 'replies', id: created.id, disableErrors: true })).toBeNull()
  })

  it('commits the job with the reply', async () => {
    const req = await createLocalReq({ user: { ...cast.reader, collection: 'users' } as never }, t.payload)
    await initTransaction(req)
    const created = await t.payload.create({ collection: 'replies', data: { article: articleId, body: 'Committed in a transaction' }, req })
    await commitTransaction(req)
    await waitUntil(async () => mailsAbout('Committed in a transaction').length === 1, { what: 'the mail' })
    expect((await jobState(created.id))?.state).toMatch(/active|completed/)
  })

  it('retries while the mail server is down, then sends exactly one mail and keeps one notification', async () => {
    await inbox.stop()
    const created = await reply('Sent during an outage')
    const failed = await waitUntil(async () => {
      const job = await jobState(created.id)
      return job && job.retry_count >= 1 ? job : undefined
    }, { what: 'a failed first try' })
    expect(failed.retry_count).toBeGreaterThanOrEqual(1)
    await inbox.start()
    await waitUntil(async () => (await jobState(created.id))?.state === 'completed', { what: 'job completion after the outage' })
    expect(mailsAbout('Sent during an outage')).toHaveLength(1)
    const { docs } = await t.payload.find({ collection: 'notifications', where: { reply: { equals: created.id } } })
    expect(docs).toHaveLength(1)
    expect(docs[0]!.mailedAt).toBeTruthy()
  })

  it('runs each job once with two workers on one database', async () => {
    // A second set of workers on the same database, as another process would run.
    const env = getEnv()
    const second = await startQueue(t.payload, { connection: 'pgboss', databaseUrl: env.databaseUrl, work: true, timeZone: env.timeZone })
    try {
      const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => reply(`Parallel reply ${i}`)))
      await waitUntil(async () => mailsAbout('Parallel reply').length >= 12, { what: '12 mails' })
      for (const r of replies) await waitUntil(async () => (await jobState(r.id))?.state === 'completed', { what: `job ${r.id}` })
      expect(mailsAbout('Parallel reply')).toHaveLength(12)
      const { totalDocs } = await t.payload.count({ collection: 'notifications', where: { reply: { in: replies.map((r) => r.id) } } })
      expect(totalDocs).toBe(12)
    } finally {
      await second.stop()
    }
  })
})

describe('queue console', () => {
  const consoleRequest = async (email: string | null, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (email) {
      const { token } = await t.payload.login({ collection: 'users', data: { email, password: 'correct horse battery staple' } })
      headers.set('authorization', `JWT ${token}`)
    }
    return new Request('http://localhost:3000/admin/queues', { ...init, headers })
  }

  it('answers 403 to everyone without queue.monitor', async () => {
    const { renderQueueConsole } = await import('../../src/admin/QueueConsole/queueConsole')
    for (const email of [null, 'reader@example.test', 'author@example.test', 'admin@example.test']) {
      expect((await renderQueueConsole(await consoleRequest(email), t.payload)).status).toBe(403)
    }
  })

  it('shows the site owner every queue by state, failed jobs with their error, and retries or deletes them', async () => {
    const { handleQueueConsoleAction, renderQueueConsole } = await import('../../src/admin/QueueConsole/queueConsole')
    // A job that fails for good: its reply is gone, but the data points at a reply of a deleted article… so make one fail.
    const failing = await queueOf(t.payload).boss!.send('notify-article-author', { replyId: 'not-a-number' } as never, { retryLimit: 0 } as never)
    await waitUntil(async () => {
      const { rows } = await db.query(`select state from pgboss.job where id = $1`, [failing])
      return rows[0]?.state === 'failed'
    }, { what: 'the job to fail' })

    const response = await renderQueueConsole(await consoleRequest('owner@example.test'), t.payload)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('notify-article-author')
    expect(html).toContain('Jobs by state')
    expect(html).toContain(failing!)
    expect(html).toContain('not-a-number')

    const act = async (action: string) => {
      const body = new URLSearchParams({ action, name: 'notify-article-author', id: failing! })
      const request = await consoleRequest('owner@example.test', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:3000' },
      })
      return handleQueueConsoleAction(request, t.payload)
    }
    const crossSite = await handleQueueConsoleAction(
      await consoleRequest('owner@example.test', {
        method: 'POST',
        body: new URLSearchParams({ action: 'delete', name: 'notify-article-author', id: failing! }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.test' },
      }),
      t.payload,
    )
    expect(crossSite.status).toBe(403)
    expect((await act('retry')).status).toBe(303)
    await waitUntil(async () => {
      const { rows } = await db.query(`select state from pgboss.job where id = $1`, [failing])
      return rows[0]?.state === 'failed' && rows[0]
    }, { what: 'the retried job to fail again' })
    expect((await act('delete')).status).toBe(303)
    const { rows } = await db.query(`select 1 from pgboss.job where id = $1`, [failing])
    expect(rows).toHaveLength(0)
  })
})
