/**
 * A worker process killed mid-job (SIGKILL while its mail is being sent) loses
 * nothing: once its heartbeat stops, pg-boss hands the job to the next worker,
 * which sends the mail; one notification and one delivered mail in the end.
 */
import type { ChildProcess } from 'node:child_process'

import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { scriptEnv } from '../helpers/script'
import { smtpEnv, startInbox, type Inbox } from '../helpers/smtp'
import { createCast } from '../helpers/users'
import { waitUntil } from '../helpers/waitUntil'
import { killGroup, startWorker } from '../helpers/worker'

let t: TestPayload
let inbox: Inbox
let hang = true
const workers: ChildProcess[] = []

const workerEnv = () => scriptEnv(t.databaseUrl, { QUEUE_CONNECTION: 'pgboss', ...smtpEnv(inbox) })

beforeAll(async () => {
  // While `hang` is set, a mail is never answered: the sending worker waits on it.
  inbox = await startInbox({ hold: () => hang })
  // This process only enqueues (WORKER=off); the workers are other processes.
  t = await createTestPayload({ QUEUE_CONNECTION: 'pgboss', WORKER: 'off', ...smtpEnv(inbox) })
})
afterAll(async () => {
  for (const w of workers) killGroup(w)
  await t?.destroy()
  await inbox?.stop()
})

describe('a worker killed mid-job', () => {
  it('has its job finished by the next worker: one mail, one notification', async () => {
    const cast = await createCast(t.payload)
    const article = await t.payload.create({
      collection: 'articles',
      data: { title: 'Crash test', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id },
    })
    const first = await startWorker(workerEnv(), workers)
    const reply = await t.payload.create({
      collection: 'replies',
      data: { article: article.id, body: 'Sent while the worker dies' },
      overrideAccess: false,
      user: cast.reader,
    })
    await waitUntil(async () => inbox.held.length === 1, { what: 'the worker to be mid-send' })
    killGroup(first)

    hang = false
    await startWorker(workerEnv(), workers)
    await waitUntil(async () => inbox.messages.length === 1, { what: 'the mail from the second worker', timeoutMs: 45_000 })
    expect(inbox.messages[0]!.text).toContain('Sent while the worker dies')

    const db = new pg.Client({ connectionString: t.databaseUrl })
    await db.connect()
    const state = await waitUntil(async () => {
      const { rows } = await db.query(`select state from pgboss.job where singleton_key = $1`, [`reply:${reply.id}`])
      return rows[0]?.state === 'completed' && rows[0].state
    }, { what: 'job completion' })
    await db.end()
    expect(state).toBe('completed')
    const { totalDocs } = await t.payload.count({ collection: 'notifications', where: { reply: { equals: reply.id } } })
    expect(totalDocs).toBe(1)
    expect(inbox.messages).toHaveLength(1)
  })
})
