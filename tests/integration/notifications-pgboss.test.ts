/**
 * QUEUE_CONNECTION=pgboss on real PostgreSQL: the job is enqueued through the
 * reply's own transaction, pg-boss workers send the mail to a real SMTP server,
 * retry while it is down, and several workers still run each job once.
 */
import pg from 'pg'
import { commitTransaction, createLocalReq, initTransaction, killTransaction } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { queueOf } from '../../jobs/queue'
import { loadQueueConsole } from '../../src/plugins/jobs/admin/queueConsoleData'
import { startQueue } from '../../jobs/worker'
import { getEnv } from '../../src/lib/env'
import { writeArticle } from '../helpers/articles'
import { cli, form as formBody } from '../helpers/cliClient'
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

beforeAll(async () => {
  inbox = await startInbox()
  // No script starts the queue: the jobs plugin does, in Payload's onInit.
  t = await createTestPayload({ ...smtpEnv(inbox), QUEUE_CONNECTION: 'pgboss' })
  db = new pg.Client({ connectionString: t.databaseUrl })
  db.on('error', () => {})
  await db.connect()
  cast = await createCast(t.payload)
  articleId = (await writeArticle(t.payload, cast.author, 'Workers')).id
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
    const second = await startQueue(t.payload, { connection: 'pgboss', databaseUrl: env.databaseUrl, work: true, timeZone: env.timeZone, retry: env.jobRetry })
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
  const tokenOf = async (email: string) =>
    (await t.payload.login({ collection: 'users', data: { email, password: 'correct horse battery staple' } })).token!
  /** The console's Retry/Delete form, posted through Payload's real REST pipeline. */
  const postAction = async (form: Record<string, string>, auth: { token?: string; cookieToken?: string; origin?: string } = {}) => {
    const browser = new Browser(t.payload, t.databaseName)
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
    if (auth.token) headers.authorization = `JWT ${auth.token}`
    if (auth.cookieToken) browser.cookies.set('payload-token', auth.cookieToken)
    return browser.request('/api/queue-console/jobs', { method: 'POST', body: new URLSearchParams(form).toString(), headers, origin: auth.origin })
  }

  it('reads the console’s url-encoded form as the running app hands it on (turned into JSON), answering 4xx or 303, never 500 (issue 27 item 7)', async () => {
    const owner = await tokenOf('owner@example.test')
    // cli() sends the body through the same normalising step as the one-origin server (src/lib/requestBody.ts).
    const send = (fields: Record<string, string>) => {
      const { headers, body } = formBody(fields)
      return cli(t.payload, t.databaseName, '/api/queue-console/jobs', { method: 'POST', headers: { ...headers, authorization: `JWT ${owner}` }, body })
    }
    const badId = await send({ action: 'retry', name: 'notify-article-author', id: 'x' })
    expect(badId.status).toBe(400)
    expect(badId.body.errors[0].data.errors).toEqual([{ path: 'id', message: 'must be a job id (a UUID)' }])
    const badAction = await send({ action: 'explode', name: 'notify-article-author', id: '00000000-0000-0000-0000-000000000000' })
    expect(badAction.status).toBe(400)
    expect(badAction.body.errors[0].data.errors[0].path).toBe('action')
    const failing = (await queueOf(t.payload).boss!.send('notify-article-author', { replyId: 'never-a-number' } as never, { retryLimit: 0 } as never))!
    await waitUntil(async () => (await db.query(`select state from pgboss.job where id = $1`, [failing])).rows[0]?.state === 'failed', { what: 'the job to fail' })
    const deleted = await send({ action: 'delete', name: 'notify-article-author', id: failing })
    expect(deleted.status).toBe(303)
    expect((await db.query(`select 1 from pgboss.job where id = $1`, [failing])).rows).toHaveLength(0)
  })

  it('refuses the console’s actions with 403 to everyone without queue.monitor', async () => {
    const form = { action: 'delete', name: 'notify-article-author', id: '00000000-0000-0000-0000-000000000000' }
    expect((await postAction(form)).status).toBe(403)
    for (const email of ['reader@example.test', 'author@example.test', 'admin@example.test']) {
      const response = await postAction(form, { token: await tokenOf(email) })
      expect(response.status).toBe(403)
      expect(await response.text()).toContain('queue.monitor')
    }
  })

  it('shows the site owner every queue by state and failed jobs with their error; retries or deletes them', async () => {
    // A job that fails for good: malformed data can never succeed.
    const failing = (await queueOf(t.payload).boss!.send('notify-article-author', { replyId: 'not-a-number' } as never, { retryLimit: 0 } as never))!
    await waitUntil(async () => {
      const { rows } = await db.query(`select state from pgboss.job where id = $1`, [failing])
      return rows[0]?.state === 'failed'
    }, { what: 'the job to fail' })

    const data = await loadQueueConsole(t.payload)
    if (data.mode !== 'pgboss') throw new Error('expected the pg-boss console')
    expect(data.queues.map((q) => q.name)).toEqual(expect.arrayContaining(['notify-article-author', 'prune-schedule-runs']))
    expect(data.queues.find((q) => q.name === 'notify-article-author')!.byState.failed).toBeGreaterThanOrEqual(1)
    const shown = data.failed.find((j) => j.id === failing)
    expect(shown?.error).toContain('not-a-number')
    expect(data.schedules).toContainEqual(expect.objectContaining({ name: 'prune-schedule-runs', cron: '30 3 * * *' }))

    const owner = await tokenOf('owner@example.test')
    const form = (action: string) => ({ action, name: 'notify-article-author', id: failing })
    // A cross-site form post carries the owner's cookie, but Payload's CSRF check ignores it.
    expect((await postAction(form('delete'), { cookieToken: owner, origin: 'http://evil.test' })).status).toBe(403)
    const badId = await postAction({ ...form('retry'), id: 'x' }, { token: owner })
    expect(badId.status).toBe(400)
    expect(await badId.json()).toEqual({
      errors: [{ name: 'ValidationError', message: 'must be a job id (a UUID)', data: { errors: [{ path: 'id', message: 'must be a job id (a UUID)' }] } }],
    })

    const retried = await postAction(form('retry'), { cookieToken: owner })
    expect(retried.status).toBe(303)
    expect(retried.headers.get('location')).toBe('/admin/queues')
    await waitUntil(async () => {
      const { rows } = await db.query(`select state, retry_count from pgboss.job where id = $1`, [failing])
      return rows[0]?.state === 'failed' && rows[0].retry_count >= 1 && rows[0]
    }, { what: 'the retried job to fail again' })
    expect((await postAction(form('delete'), { token: owner })).status).toBe(303)
    const { rows } = await db.query(`select 1 from pgboss.job where id = $1`, [failing])
    expect(rows).toHaveLength(0)
  })
})
