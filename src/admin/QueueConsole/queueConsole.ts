/**
 * The queue monitoring console (QUEUE_MONITOR_PATH, default /admin/queues):
 * every queue's jobs by state, the last hour's throughput, the latest failed
 * jobs with their error and data (retry or delete them), and the schedules
 * with their next run. Only holders of `queue.monitor` may see it (403 for
 * everyone else); in sync mode it says there is no queue to watch.
 */
import { CronExpressionParser } from 'cron-parser'
import { createLocalReq, type Payload } from 'payload'

import { registeredCommands } from '../../../jobs/commands'
import { queueOf } from '../../../jobs/queue'
import { deadLetterQueue } from '../../../jobs/worker'
import { hasPermission } from '../../access/permissions'
import { getEnv } from '../../lib/env'
import { escapeHtml as h } from '../../lib/escapeHtml'

type Row = Record<string, unknown>
const STATES = ['created', 'retry', 'active', 'completed', 'failed', 'cancelled'] as const

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(title)} · Inkwell admin</title><style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d1c1a;background:#fbfaf8}main{max-width:72rem;margin:0 auto;padding:1.5rem}
h1{margin:.2rem 0 1rem}h2{margin:2rem 0 .5rem;font-size:1.1rem}table{border-collapse:collapse;width:100%;background:#fff}
th,td{border:1px solid #e6e2da;padding:.35rem .6rem;text-align:left;vertical-align:top}th{background:#f3f0ea}td.n{text-align:right;font-variant-numeric:tabular-nums}
pre{margin:0;white-space:pre-wrap;max-width:36rem;font-size:12px}.note{background:#fff8e6;border:1px solid #f0d690;padding:.75rem 1rem;border-radius:8px}
form{display:inline}button{font:inherit;padding:.15rem .6rem;cursor:pointer}a{color:#8a3b12}
</style></head><body><main><p><a href="/admin">← Admin</a></p>${body}</main></body></html>`
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } })
}

async function authorize(request: Request, payload: Payload): Promise<Response | null> {
  const { user } = await payload.auth({ headers: request.headers })
  if (!user) return page('Forbidden', '<h1>403 — sign in first</h1><p><a href="/admin/login">Sign in</a> with an account allowed to monitor the queue.</p>', 403)
  const req = await createLocalReq({ user }, payload)
  if (!(await hasPermission(req, 'queue.monitor'))) {
    return page('Forbidden', '<h1>403 — not allowed</h1><p>The queue console needs the <code>queue.monitor</code> permission.</p>', 403)
  }
  return null
}

/** Every pg-boss queue of this instance: one per job and one per schedule. */
function queueNames(payload: Payload): string[] {
  const { jobs, schedules } = registeredCommands(payload)
  return [...Object.keys(jobs), ...schedules.map((s) => s.name)]
}

async function query(payload: Payload, sql: string, params: unknown[] = []): Promise<Row[]> {
  const pool = (payload.db as unknown as { pool: { query: (s: string, p: unknown[]) => Promise<{ rows: Row[] }> } }).pool
  return (await pool.query(sql, params)).rows
}

function nextRun(cron: string, timezone: string | null): string {
  try {
    return CronExpressionParser.parse(cron, { tz: timezone ?? 'UTC' }).next().toDate().toISOString()
  } catch {
    return '—'
  }
}

export async function renderQueueConsole(request: Request, payload: Payload): Promise<Response> {
  const denied = await authorize(request, payload)
  if (denied) return denied
  if (queueOf(payload).mode === 'sync') {
    return page(
      'Queues',
      `<h1>Queues</h1><p class="note"><strong>QUEUE_CONNECTION=sync</strong>: jobs run in the web process right after each write, retrying in place. There is no queue to monitor. Set <code>QUEUE_CONNECTION=pgboss</code> for a durable queue with retries, a dead-letter queue and this console.</p>`,
    )
  }
  const queues = queueNames(payload)
  const names = queues.flatMap((n) => [n, deadLetterQueue(n)])
  const [counts, hour, failed, schedules] = await Promise.all([
    query(payload, `select name, state::text as state, count(*)::int as n from pgboss.job where name = any($1) group by 1, 2`, [names]),
    query(payload, `select name, count(*)::int as n from pgboss.job where name = any($1) and state = 'completed' and completed_on > now() - interval '1 hour' group by 1`, [names]),
    query(payload, `select id, name, data, output, retry_count, completed_on from pgboss.job where name = any($1) and state = 'failed' order by completed_on desc limit 25`, [names]),
    query(payload, `select name, cron, timezone from pgboss.schedule order by name`),
  ])
  const count = (name: string, state: string) => counts.find((c) => c.name === name && c.state === state)?.n ?? 0
  const perHour = (name: string) => hour.find((c) => c.name === name)?.n ?? 0
  const queueRows = queues
    .map((name) => {
      const dead = STATES.reduce((sum, s) => sum + Number(count(deadLetterQueue(name), s)), 0)
      return `<tr><td>${h(name)}</td>${STATES.map((s) => `<td class="n">${count(name, s)}</td>`).join('')}<td class="n">${dead}</td><td class="n">${perHour(name)}</td></tr>`
    })
    .join('')
  const failedRows = failed
    .map(
      (job) => `<tr><td>${h(String(job.name))}<br><small>${h(String(job.id))}</small></td><td>${h(new Date(String(job.completed_on)).toISOString())}</td>
<td><pre>${h(JSON.stringify((job.output as { message?: string })?.message ?? job.output, null, 1) ?? '')}</pre></td><td><pre>${h(JSON.stringify(job.data))}</pre></td><td class="n">${job.retry_count}</td>
<td>${['retry', 'delete'].map((a) => `<form method="post"><input type="hidden" name="action" value="${a}"><input type="hidden" name="name" value="${h(String(job.name))}"><input type="hidden" name="id" value="${h(String(job.id))}"><button>${a === 'retry' ? 'Retry' : 'Delete'}</button></form>`).join(' ')}</td></tr>`,
    )
    .join('')
  const scheduleRows = schedules
    .map((s) => `<tr><td>${h(String(s.name))}</td><td><code>${h(String(s.cron))}</code> ${h(String(s.timezone ?? 'UTC'))}</td><td>${nextRun(String(s.cron), s.timezone as string | null)}</td></tr>`)
    .join('')
  return page(
    'Queues',
    `<h1>Queues</h1>
<h2>Jobs by state</h2><table><thead><tr><th>Queue</th>${STATES.map((s) => `<th>${s}</th>`).join('')}<th>dead-letter</th><th>completed, last hour</th></tr></thead><tbody>${queueRows}</tbody></table>
<h2>Latest failed jobs</h2>${failed.length ? `<table><thead><tr><th>Job</th><th>Failed at</th><th>Error</th><th>Data</th><th>Retries</th><th></th></tr></thead><tbody>${failedRows}</tbody></table>` : '<p>No failed jobs.</p>'}
<h2>Schedules</h2>${schedules.length ? `<table><thead><tr><th>Queue</th><th>When</th><th>Next run</th></tr></thead><tbody>${scheduleRows}</tbody></table>` : '<p>No schedules yet.</p>'}`,
  )
}

/** Retry or delete a failed job. Cookie-authenticated, so the form must come from this site. */
export async function handleQueueConsoleAction(request: Request, payload: Payload): Promise<Response> {
  const origin = request.headers.get('origin')
  if (origin && origin !== new URL(getEnv().baseUrl).origin) return page('Forbidden', '<h1>403 — cross-site request refused</h1>', 403)
  const denied = await authorize(request, payload)
  if (denied) return denied
  const boss = queueOf(payload).boss
  const form = await request.formData()
  const name = String(form.get('name') ?? '')
  const id = String(form.get('id') ?? '')
  const action = String(form.get('action') ?? '')
  const known = queueNames(payload).flatMap((n) => [n, deadLetterQueue(n)])
  if (!boss || !known.includes(name) || !/^[0-9a-f-]{36}$/.test(id) || !['retry', 'delete'].includes(action)) {
    return page('Bad request', '<h1>400 — unknown job or action</h1>', 400)
  }
  if (action === 'retry') await boss.retry(name, id)
  else await boss.deleteJob(name, id)
  return new Response(null, { status: 303, headers: { location: new URL(request.url).pathname } })
}
