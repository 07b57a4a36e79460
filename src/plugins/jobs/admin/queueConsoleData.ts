/**
 * What the queue console shows and does: every queue's jobs by state, the last
 * hour's throughput, the latest failed jobs with their error and data (retry or
 * delete them), and the schedules with their next run. Only holders of
 * `queue.monitor` may see it; in sync mode there is no queue to watch.
 */
import { CronExpressionParser } from 'cron-parser'
import type { Payload, PayloadRequest } from 'payload'
import { formatAdminURL } from 'payload/shared'

import { registeredCommands } from '../../../../jobs/commands'
import { queueOf } from '../../../../jobs/queue'
import { deadLetterQueue } from '../../../../jobs/worker'
import { hasPermission } from '../../../access/permissions'
import { readBody } from '../../../lib/accountHttp'
import { errorResponse } from '../../../lib/errorResponse'
import { translatorFor } from '../../../lib/i18n/request'
import { poolOf, query } from '../../../lib/pool'

export const QUEUE_CONSOLE_PATH = '/queues'
export const QUEUE_CONSOLE_ACTION_PATH = '/queue-console/jobs'
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'failed', 'cancelled'] as const

export type QueueRow = { name: string; byState: Record<(typeof JOB_STATES)[number], number>; deadLetter: number; lastHour: number }
export type FailedJob = { id: string; name: string; failedAt: string; error: string; data: string; retries: number }
export type ScheduleRow = { name: string; cron: string; timeZone: string; nextRun: string }
export type DeadJob = { id: string; name: string; queue: string; deadSince: string; data: string }
export type QueueConsoleData =
  | { mode: 'sync' }
  | { mode: 'pgboss'; queues: QueueRow[]; failed: FailedJob[]; schedules: ScheduleRow[]; dead: { total: number; latest: DeadJob[] } }

/** A dead-lettered job waits in its queue's `.dead` queue, which nobody works, until it is retried or deleted. */
const WAITING = `state in ('created', 'retry')`
const deadQueues = (payload: Payload) => queueNames(payload).map(deadLetterQueue)
const originalQueue = (dead: string) => dead.replace(/\.dead$/, '')

/** How many jobs wait in dead-letter queues (the admin navigation shows it beside "Queues"); 0 in sync mode. */
export async function deadLetterCount(payload: Payload): Promise<number> {
  if (queueOf(payload).mode === 'sync') return 0
  const [row] = await query(payload, `select count(*)::int as n from pgboss.job where name = any($1) and ${WAITING}`, [deadQueues(payload)])
  return Number(row?.n ?? 0)
}

/**
 * Sends every dead-lettered job (of one queue, or of all) back to its queue
 * as a new job with the same data and a fresh retry budget, and removes it
 * from the dead-letter queue, in one transaction: a job is either still dead
 * or queued again, never both, never neither. Returns how many were retried.
 */
export async function retryDeadLettered(payload: Payload, onlyQueue?: string): Promise<number> {
  const boss = queueOf(payload).boss
  if (!boss) return 0
  const names = onlyQueue ? [deadLetterQueue(onlyQueue)] : deadQueues(payload)
  const client = await poolOf(payload).connect()
  try {
    await client.query('begin')
    const { rows } = await client.query(
      `select id, name, data from pgboss.job where name = any($1) and ${WAITING} order by created_on limit 10000 for update skip locked`,
      [names],
    )
    const db = { executeSql: (text: string, values?: unknown[]) => client.query(text, values) as Promise<{ rows: unknown[] }> }
    for (const row of rows) await boss.send(originalQueue(String(row.name)), (row.data ?? {}) as object, { db } as never)
    await client.query(`delete from pgboss.job where name = any($1) and id = any($2::uuid[])`, [names, rows.map((r) => r.id)])
    await client.query('commit')
    return rows.length
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

type Row = Record<string, unknown>

export function mayMonitorQueue(req: PayloadRequest): Promise<boolean> {
  return req.user ? hasPermission(req, 'queue.monitor') : Promise.resolve(false)
}

export type QueueConsoleAccess = 'allowed' | 'sign-in' | 'forbidden'

/**
 * Who may open the console: the one rule, applied by the view and, for the
 * HTTP status, by the one-origin server (src/server/guardedAdminViews.ts).
 * Holders of queue.monitor see it; a visitor who is not signed in is sent to
 * sign in (as Payload does for its own admin views); everyone else is refused.
 */
export async function queueConsoleAccess(req: PayloadRequest): Promise<QueueConsoleAccess> {
  if (!req.user) return 'sign-in'
  return (await mayMonitorQueue(req)) ? 'allowed' : 'forbidden'
}

/** The admin's login, returning to `target` (a path with its query) afterwards: Payload's own `?redirect=`. */
export function signInURL(payload: Payload, target: string): string {
  const login = formatAdminURL({ adminRoute: payload.config.routes.admin, path: payload.config.admin.routes.login })
  return `${login}?${new URLSearchParams({ redirect: target })}`
}

/** Every pg-boss queue of this instance: one per job and one per schedule. */
export function queueNames(payload: Payload): string[] {
  const { jobs, schedules } = registeredCommands(payload)
  return [...Object.keys(jobs), ...schedules.map((s) => s.name)]
}


function nextRun(cron: string, timeZone: string): string {
  try {
    return CronExpressionParser.parse(cron, { tz: timeZone }).next().toDate().toISOString()
  } catch {
    return '—'
  }
}

export async function loadQueueConsole(payload: Payload): Promise<QueueConsoleData> {
  if (queueOf(payload).mode === 'sync') return { mode: 'sync' }
  const queues = queueNames(payload)
  const names = queues.flatMap((n) => [n, deadLetterQueue(n)])
  const [counts, hour, failed, schedules, deadTotal, dead] = await Promise.all([
    query(payload, `select name, state::text as state, count(*)::int as n from pgboss.job where name = any($1) group by 1, 2`, [names]),
    query(payload, `select name, count(*)::int as n from pgboss.job where name = any($1) and state = 'completed' and completed_on > now() - interval '1 hour' group by 1`, [names]),
    query(payload, `select id, name, data, output, retry_count, completed_on from pgboss.job where name = any($1) and state = 'failed' order by completed_on desc limit 25`, [names]),
    query(payload, `select name, cron, timezone from pgboss.schedule order by name`),
    deadLetterCount(payload),
    query(payload, `select id, name, data, created_on from pgboss.job where name = any($1) and ${WAITING} order by created_on desc limit 50`, [deadQueues(payload)]),
  ])
  const count = (name: string, state: string) => Number(counts.find((c) => c.name === name && c.state === state)?.n ?? 0)
  return {
    mode: 'pgboss',
    queues: queues.map((name) => ({
      name,
      byState: Object.fromEntries(JOB_STATES.map((s) => [s, count(name, s)])) as QueueRow['byState'],
      deadLetter: JOB_STATES.reduce((sum, s) => sum + count(deadLetterQueue(name), s), 0),
      lastHour: Number(hour.find((c) => c.name === name)?.n ?? 0),
    })),
    failed: failed.map((job) => ({
      id: String(job.id),
      name: String(job.name),
      failedAt: new Date(String(job.completed_on)).toISOString(),
      error: JSON.stringify((job.output as { message?: string })?.message ?? job.output, null, 1) ?? '',
      data: JSON.stringify(job.data),
      retries: Number(job.retry_count),
    })),
    dead: {
      total: deadTotal,
      latest: dead.map((job) => ({
        id: String(job.id),
        name: String(job.name),
        queue: originalQueue(String(job.name)),
        deadSince: new Date(String(job.created_on)).toISOString(),
        data: JSON.stringify(job.data),
      })),
    },
    schedules: schedules.map((s) => {
      const timeZone = String(s.timezone ?? 'UTC')
      return { name: String(s.name), cron: String(s.cron), timeZone, nextRun: nextRun(String(s.cron), timeZone) }
    }),
  }
}

/**
 * POST /api/queue-console/jobs (the console's Retry and Delete buttons):
 * 403 JSON without `queue.monitor`, 400 naming the field for a bad form,
 * 303 back to the console when done. Cookie-authenticated, so the form must
 * come from this site (Payload's CSRF check refuses the cookie otherwise).
 */
export async function handleQueueConsoleAction(req: PayloadRequest): Promise<Response> {
  if (!(await mayMonitorQueue(req))) {
    return Response.json({ errors: [{ message: translatorFor(req)('queues.forbidden') }] }, { status: 403 })
  }
  // The console's form is url-encoded, which the one-origin server hands on as JSON (src/lib/requestBody.ts): read either.
  const form = await readBody(req)
  const name = form.name ?? ''
  const id = form.id ?? ''
  const action = form.action ?? ''
  const t = translatorFor(req)
  const fieldError = (field: string, message: string) => errorResponse(400, { fields: { [field]: message } })
  const boss = queueOf(req.payload).boss
  if (!boss) return fieldError('name', t('queues.noQueue'))
  const admin = req.payload.config.routes.admin
  if (action === 'retry-dead') {
    // Bulk: every dead-lettered job, or those of one queue when `name` names it.
    if (name && !queueNames(req.payload).includes(name)) return fieldError('name', t('queues.notAQueue'))
    const retried = await retryDeadLettered(req.payload, name || undefined)
    req.payload.logger.info(`queue console: ${retried} dead-lettered job(s) sent back to their queue`)
    return new Response(null, { status: 303, headers: { location: `${admin}${QUEUE_CONSOLE_PATH}` } })
  }
  if (!queueNames(req.payload).flatMap((n) => [n, deadLetterQueue(n)]).includes(name)) return fieldError('name', t('queues.notAQueue'))
  if (!/^[0-9a-f-]{36}$/.test(id)) return fieldError('id', t('queues.badId'))
  if (action !== 'retry' && action !== 'delete') return fieldError('action', t('queues.badAction'))
  if (action === 'retry') await boss.retry(name, id)
  else await boss.deleteJob(name, id)
  return new Response(null, { status: 303, headers: { location: `${admin}${QUEUE_CONSOLE_PATH}` } })
}
