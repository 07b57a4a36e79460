/**
 * The jobs plugin on real pg-boss and PostgreSQL: a Payload instance started
 * with no script gets the configured queue, the schedules reach pg-boss's
 * schedule table, `schedule:run` runs a due schedule once however often it is
 * called in that minute, payload.destroy() stops the queue, and `npm run blog`
 * lists, runs and refuses commands.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { queueOf } from '../../jobs/queue'
import { runDueSchedules } from '../../jobs/scheduleRun'
import { RUN_IMPORT_EXPIRE_SECONDS } from '../../src/plugins/import'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { runScript, scriptEnv } from '../helpers/script'
import { createCast } from '../helpers/users'
import { waitUntil } from '../helpers/waitUntil'

let t: TestPayload
let db: pg.Client
let cast: Awaited<ReturnType<typeof createCast>>

beforeAll(async () => {
  // WORKER=off: this instance only sends, so the jobs it enqueues stay visible in pgboss.job.
  t = await createTestPayload({ QUEUE_CONNECTION: 'pgboss', WORKER: 'off', APP_TIMEZONE: 'Europe/Paris' })
  db = new pg.Client({ connectionString: t.databaseUrl })
  db.on('error', () => {})
  await db.connect()
  cast = await createCast(t.payload)
})
afterAll(async () => {
  await db?.end()
  await t?.destroy()
})

/** `npm run blog -- …` against this file's database, as an operator would run it. */
const blog = (args: string[]) => runScript('jobs/cli.ts', args, scriptEnv(t.databaseUrl, { QUEUE_CONNECTION: 'pgboss' }))

describe('the jobs plugin', () => {
  it('starts pg-boss in onInit: a reply’s job goes to pg-boss, not to sync mode', async () => {
    expect(queueOf(t.payload).mode).toBe('pgboss')
    const article = await t.payload.create({
      collection: 'articles',
      data: { title: 'Queued', format: 'markdown', markdown: 'Body', status: 'published', author: cast.author.id },
    })
    const reply = await t.payload.create({ collection: 'replies', data: { article: article.id, body: 'Into the queue' }, overrideAccess: false, user: cast.reader })
    const { rows } = await db.query(`select state, data from pgboss.job where name = 'notify-article-author' and singleton_key = $1`, [`reply:${reply.id}`])
    expect(rows).toEqual([{ state: 'created', data: { replyId: reply.id } }])
    // Nothing ran in-process: no notification exists until a worker takes the job.
    expect((await t.payload.count({ collection: 'notifications', where: { reply: { equals: reply.id } } })).totalDocs).toBe(0)
  })

  it('gives the uploaded import job hours, not the default 15 minutes, and every queue a 10 s heartbeat', async () => {
    const { rows } = await db.query(`select name, expire_seconds, heartbeat_seconds from pgboss.queue where name in ('run-import', 'notify-article-author') order by name`)
    expect(rows).toEqual([
      { name: 'notify-article-author', expire_seconds: 900, heartbeat_seconds: 10 },
      { name: 'run-import', expire_seconds: RUN_IMPORT_EXPIRE_SECONDS, heartbeat_seconds: 10 },
    ])
  })

  it('registers every schedule with pg-boss cron, in APP_TIMEZONE', async () => {
    const { rows } = await db.query(`select name, cron, timezone from pgboss.schedule order by name`)
    expect(rows).toContainEqual({ name: 'prune-schedule-runs', cron: '30 3 * * *', timezone: 'Europe/Paris' })
  })

  it('schedule:run runs a due schedule once, however many hosts call it in that minute', async () => {
    // 03:30 in Paris on 24 November is 02:30 UTC: prune-schedule-runs is due.
    const now = new Date('2026-11-24T02:30:20Z')
    const lines: string[] = []
    const io = () => ({ log: (line: string) => lines.push(line), progress: () => {} })
    const [first, second] = await Promise.all([
      runDueSchedules(t.payload, { now, timeZone: 'Europe/Paris', io }),
      runDueSchedules(t.payload, { now: new Date('2026-11-24T02:30:50Z'), timeZone: 'Europe/Paris', io }),
    ])
    const third = await runDueSchedules(t.payload, { now, timeZone: 'Europe/Paris', io })
    const summaries = [first, second, third]
    // Other plugins' schedules are due too (publish-scheduled runs every minute): each runs once.
    const counts = summaries.map((s) => s.match(/(\d+) due, (\d+) ran, (\d+) already run elsewhere/)!.slice(1).map(Number))
    const due = counts[0][0]
    expect(due).toBeGreaterThanOrEqual(1)
    expect(counts.every(([d]) => d === due)).toBe(true)
    expect(counts.reduce((sum, [, ran]) => sum + ran, 0)).toBe(due)
    expect(counts.reduce((sum, [, , skipped]) => sum + skipped, 0)).toBe(2 * due)
    expect(lines.filter((l) => l.startsWith('prune-schedule-runs: pruned'))).toHaveLength(1)
    const { rows } = await db.query(`select name, due_at, finished_at is not null as finished from schedule_runs order by name`)
    expect(rows).toHaveLength(due)
    expect(rows).toContainEqual({ name: 'prune-schedule-runs', due_at: new Date('2026-11-24T02:30:00Z'), finished: true })
    expect(rows.every((r: { due_at: Date; finished: boolean }) => r.finished && r.due_at.getTime() === Date.parse('2026-11-24T02:30:00Z'))).toBe(true)
    // The next minute: prune-schedule-runs (daily at 03:30) is not due again.
    const next: string[] = []
    await runDueSchedules(t.payload, { now: new Date('2026-11-24T02:31:00Z'), timeZone: 'Europe/Paris', io: () => ({ log: (line: string) => next.push(line), progress: () => {} }) })
    expect(next.some((l) => l.startsWith('prune-schedule-runs'))).toBe(false)
  })
})

describe('npm run blog', () => {
  it('--help lists the registered commands, schedules, built-ins and jobs', async () => {
    const { code, stdout } = await blog(['--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^ {2}recount-unread-notifications +Recount/m)
    expect(stdout).toMatch(/^ {2}prune-schedule-runs +.*\[30 3 \* \* \*\]/m)
    expect(stdout).toContain('schedule:run [--at <ISO time>]')
    expect(stdout).toMatch(/^Queue jobs: .*\bnotify-article-author\b/m)
  })

  it('refuses an unknown command with exit code 2 and says how to list them', async () => {
    const { code, stderr } = await blog(['no-such-command'])
    expect(code).toBe(2)
    expect(stderr).toContain('Unknown command "no-such-command"')
    expect(stderr).toContain('npm run blog -- --help')
  })

  it('runs a command with progress lines and a summary as the last line', async () => {
    // A badge out of step with the notifications table, as a hand-written SQL change would leave it.
    await db.query(`update users set unread_notifications = 7 where id = $1`, [cast.reader.id])
    const { count } = (await db.query(`select count(*)::int as count from users`)).rows[0]
    const { code, stdout, stderr } = await blog(['recount-unread-notifications'])
    expect({ code, stderr }).toMatchObject({ code: 0 })
    const lines = stdout.trim().split('\n')
    expect(lines).toContain(`recount-unread-notifications: 0/${count} (0%)`)
    expect(lines).toContain(`recount-unread-notifications: ${count}/${count} (100%)`)
    expect(lines.at(-1)).toMatch(new RegExp(`^✔ recounted ${count} users, 1 badge corrected \\(\\d+\\.\\d s\\)$`))
    const { rows } = await db.query(`select unread_notifications from users where id = $1`, [cast.reader.id])
    expect(Number(rows[0].unread_notifications)).toBe(0)
  })
})

describe('payload.destroy()', () => {
  it('stops the queue: no pg-boss connection of this instance stays open', async () => {
    const appConnections = async () =>
      (await db.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'inkwell-queue'`)).rows[0].n
    expect(await appConnections()).toBeGreaterThan(0)
    await t.payload.destroy()
    // The connections are closed when destroy() returns; PostgreSQL lists a closed one until its
    // backend has exited, a moment later on a busy machine (CI once saw one still there). Well under
    // the 10 s after which a pool left open would close an idle connection itself.
    await waitUntil(async () => (await appConnections()) === 0, { timeoutMs: 3_000, what: 'the queue’s connections to be gone' })
    expect(() => queueOf(t.payload)).toThrow(/queue is not running/)
  })
})
