/**
 * `npm run bench:dashboard [-- --database <url>] [--samples 30] [--keep]`
 *
 * The owner's dashboard at the size the issue names: the demo seed, then the
 * reader-site bench's bulk seed (100,000 articles, 1,000,000 replies, 100,000
 * users) and 30 days of daily views per article. Prints, per period and
 * scope, each widget query's p95 (goal ≤ 200 ms) and the whole uncached
 * GET /api/dashboard's p95 through Payload's HTTP pipeline (goal ≤ 300 ms),
 * plus the cached request for comparison. Queries run one at a time; the
 * request runs its queries in parallel as in production.
 *
 * --database reuses an already seeded database (only views are added, when it has none).
 */
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

import pg from 'pg'
import { handleEndpoints, type Payload } from 'payload'

import { poolOf } from '../src/lib/pool'
import type { Period, Scope } from '../src/plugins/dashboard/queries'
import { seedBulk } from './seedBulk'

/** Parsed when run as the bench (another bench importing these functions has its own options). */
const args = isEntry()
  ? parseArgs({ options: { database: { type: 'string' }, samples: { type: 'string', default: '30' }, keep: { type: 'boolean', default: false } } }).values
  : { database: undefined, samples: '30', keep: false }
const SAMPLES = Number(args.samples)

function isEntry(): boolean {
  return path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)
}
const log = (message: string) => console.log(message)

function serverUrl(database: string): string {
  const base = process.env.BENCH_DATABASE_URL ?? `postgres://${process.env.PGUSER ?? 'postgres'}@${process.env.PGHOST ?? '127.0.0.1'}:${process.env.PGPORT ?? '5432'}/postgres`
  return base.replace(/\/[^/]*$/, `/${database}`)
}

async function onServer(sql: string, url = serverUrl('postgres')): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** Views as the daily sync writes them: one row per article and day since it was published, for the last 30 days. */
export async function seedViewDays(url: string): Promise<void> {
  log('[bench] inserting 30 days of daily views per article…')
  const started = Date.now()
  await onServer(
    `insert into article_view_days (article_id, day, views)
     select a.id, d::date, 1 + (a.id * 31 + extract(doy from d)::int * 17) % 200
       from articles a
       cross join generate_series(current_date - 29, current_date, interval '1 day') d
      where a.status = 'published' and d::date >= a.published_at::date
     on conflict do nothing`,
    url,
  )
  await onServer('vacuum analyze article_view_days', url)
  log(`[bench] views inserted in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!
}

async function timed(run: () => Promise<unknown>, before?: () => void): Promise<number> {
  await run() // warm-up: plans and buffers, as on a running site
  const samples: number[] = []
  for (let i = 0; i < SAMPLES; i++) {
    before?.()
    const started = performance.now()
    await run()
    samples.push(performance.now() - started)
  }
  return p95(samples)
}

type Row = { figure: string; goal: string; measured: string; verdict: string }
const rows: Row[] = []
function tableRow(figure: string, goal: number, measured: number) {
  rows.push({ figure, goal: `≤ ${goal} ms`, measured: `${measured.toFixed(1)} ms`, verdict: measured <= goal ? 'ok' : 'MISSED' })
}

/**
 * Each widget query's p95 per period, site-wide and for the busiest author (goal ≤ 200 ms), and
 * the owner's whole request uncached and cached (≤ 300 ms), each handed to `row` as it is measured.
 */
export async function measure(payload: Payload, token: string, row: (figure: string, goal: number, measuredMs: number) => void = tableRow) {
  const { invalidateLocally } = await import('../src/lib/cacheBus')
  const queries = await import('../src/plugins/dashboard/queries')
  const pool = poolOf(payload)
  const { rows: [top] } = await pool.query<{ id: number }>(`select author_id id from articles group by author_id order by count(*) desc limit 1`)
  const scopes: [string, Scope][] = [['site', { kind: 'site' }], [`author ${top!.id}`, { kind: 'author', authorId: top!.id }]]
  const timeZone = process.env.APP_TIMEZONE ?? 'UTC'
  const request = (query: string) => () =>
    handleEndpoints({
      config: payload.config,
      request: new Request(`http://localhost:3000/api/dashboard?${query}`, { headers: { authorization: `JWT ${token}` } }),
    }).then(async (response) => {
      if (response.status !== 200) throw new Error(`GET /api/dashboard?${query}: HTTP ${response.status} ${await response.text()}`)
      return response.text()
    })

  for (const period of Object.keys(queries.PERIODS) as Period[]) {
    for (const [label, scope] of scopes) {
      log(`[bench] ${period}, ${label}…`)
      const q = { period, scope, timeZone, now: new Date() }
      const { rows: [chosen] } = await pool.query<{ id: number }>(`select id from articles where $1::int is null or author_id = $1 order by id desc limit 1`, [scope.kind === 'author' ? scope.authorId : null])
      const widgets: [string, () => Promise<unknown>][] = [
        ['totals', () => queries.loadTotals(payload, q)],
        ['series (articles, replies, users, views)', () => queries.loadSeries(payload, q)],
        ['per category', () => queries.loadCategories(payload, q)],
        ['per tag', () => queries.loadTags(payload, q)],
        ['most viewed articles', () => queries.loadTopArticles(payload, q)],
        ['one article’s views', () => queries.loadArticleViews(payload, q, chosen!.id)],
      ]
      for (const [name, run] of widgets) row(`${period} · ${label} · ${name} p95`, 200, await timed(run))
    }
    // The owner's request, uncached (the cache purged before each) and cached.
    row(`${period} · GET /api/dashboard as the owner, uncached p95`, 300, await timed(request(`period=${period}`), () => invalidateLocally(['*'])))
    row(`${period} · GET /api/dashboard as the owner, cached p95`, 300, await timed(request(`period=${period}`)))
  }
}

async function main() {
  const started = Date.now()
  const load0 = os.loadavg()[0]!
  const name = `inkwell_bench_dashboard_${Date.now().toString(36)}`
  const url = args.database ?? serverUrl(name)
  if (!args.database) await onServer(`create database "${name}"`)
  Object.assign(process.env, {
    DATABASE_URL: url,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'inkwell-bench-')),
    PAYLOAD_SECRET: process.env.PAYLOAD_SECRET ?? 'bench-secret-not-for-production-0123456789',
    LOG_LEVEL: 'warn',
    WORKER: 'off',
    QUEUE_CONNECTION: 'sync',
  })
  const { bootPayload, closePayload } = await import('../src/lib/boot')
  const { payload, env, database } = await bootPayload({ log })
  try {
    if (!args.database) {
      const { seedDemo } = await import('../src/seed')
      await seedDemo(payload, { password: env.seedPassword })
      await seedBulk(url, { articles: 100_000, repliesPerArticle: 10, users: 100_000 }, log)
    }
    const pool = poolOf(payload)
    if ((await pool.query('select 1 from article_view_days limit 1')).rowCount === 0) await seedViewDays(url)
    const { token } = await payload.login({ collection: 'users', data: { email: 'owner@inkwell.test', password: env.seedPassword } })
    await measure(payload, token!)
  } finally {
    await closePayload(payload)
    await database.stop()
    if (!args.database && !args.keep) await onServer(`drop database if exists "${name}" with (force)`)
    else log(`[bench] database kept: ${url}`)
  }
  console.log(`\nInkwell dashboard — 100,000 articles, 1,000,000 replies; ${os.cpus().length} cores, Node ${process.version}`)
  console.log(`${SAMPLES} sequential samples each after a warm-up; load average ${load0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)} (other processes share this machine), ${((Date.now() - started) / 1000).toFixed(0)} s\n`)
  console.log('| figure | goal | measured | verdict |')
  console.log('| --- | --- | --- | --- |')
  for (const r of rows) console.log(`| ${r.figure} | ${r.goal} | ${r.measured} | ${r.verdict} |`)
  if (rows.some((r) => r.verdict === 'MISSED')) process.exitCode = 1
}

if (isEntry()) {
  await main()
  process.exit()
}
