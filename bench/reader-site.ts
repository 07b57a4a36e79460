/**
 * Reader-site throughput: `npm run bench -- [--articles 10000] [--duration 20] [--connections 50]`
 *
 * Seeds a fresh database (demo content + N articles with replies), starts the
 * production build the README's way, warms each URL up, then measures it with
 * autocannon at c=50 and prints one table: req/s, p50, p99. Finally it checks
 * view counting: a fixed number of article requests must add exactly that many
 * views in the database once the server has stopped cleanly.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'

import autocannon from 'autocannon'
import pg from 'pg'

import { seedBulk } from './seedBulk'

const { values: args } = parseArgs({
  options: {
    articles: { type: 'string', default: '10000' },
    replies: { type: 'string', default: '3' },
    duration: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    exact: { type: 'string', default: '20000' },
    keep: { type: 'boolean', default: false },
  },
})
const ARTICLES = Number(args.articles)
const DURATION = Number(args.duration)
const WARMUP = Number(args.warmup)
const CONNECTIONS = Number(args.connections)
const EXACT_REQUESTS = Number(args.exact)
const log = (m: string) => console.log(m)
const root = path.resolve(import.meta.dirname, '..')

function adminUrl(): string {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL
  const host = process.env.PGHOST ?? '127.0.0.1'
  return `postgres://${process.env.PGUSER ?? 'postgres'}@${host}:${process.env.PGPORT ?? '5432'}/postgres`
}

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl() })
  await client.connect()
  try {
    return await client.query(sql)
  } finally {
    await client.end()
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

function runWithArgs(script: string, extra: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', script, ...extra], { cwd: root, env, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`${script} failed`)
}
const run = (script: string, env: NodeJS.ProcessEnv) => runWithArgs(script, [], env)

type Row = { name: string; path: string; rps: number; p50: number; p99: number; ok: number; errors: number }

async function measure(url: string, length: { duration: number } | { amount: number }): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, pipelining: 1, ...length })
}

type Server = ReturnType<typeof spawn>

async function startProduction(env: NodeJS.ProcessEnv, port: number, base: string): Promise<Server> {
  const server = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/start.ts', '--no-build'], {
    cwd: root,
    env: { ...env, NODE_ENV: 'production', PORT: String(port), BASE_URL: base },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve, reject) => {
    let out = ''
    server.stdout!.on('data', (c) => {
      out += c
      if (out.includes('Inkwell is running')) resolve()
    })
    server.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)))
  })
  return server
}

/** SIGTERM: a clean shutdown, which writes the last batch of view counts. */
async function stopProduction(server: Server): Promise<void> {
  if (server.exitCode !== null) return
  const exited = new Promise((r) => server.once('exit', r))
  server.kill('SIGTERM')
  await exited
}

async function main() {
  const dbName = `inkwell_bench_${Date.now().toString(36)}`
  const databaseUrl = adminUrl().replace(/\/postgres$/, `/${dbName}`)
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'inkwell-bench-'))
  const secret = 'bench-secret-not-for-production-0123456789'
  const baseEnv = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PAYLOAD_SECRET: secret, LOG_LEVEL: 'warn' }

  log(`[bench] database ${dbName}; ${ARTICLES} articles; c=${CONNECTIONS}, ${WARMUP} s warm-up + ${DURATION} s per URL`)
  await admin(`create database "${dbName}"`)
  try {
    run('scripts/migrate.ts', { ...baseEnv, NODE_ENV: 'development' })
    run('scripts/seed.ts', { ...baseEnv, NODE_ENV: 'development' })
    await seedBulk(databaseUrl, ARTICLES, Number(args.replies), log)
    runWithArgs('scripts/build.ts', ['--if-stale'], { ...baseEnv })

    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const startServer = () => startProduction(baseEnv, port, base)
    let server = await startServer()

    const db = new pg.Client({ connectionString: databaseUrl })
    await db.connect()
    const { rows: [article] } = await db.query<{ id: number; slug: string }>(
      `select id, slug from articles where slug like 'benchmark-article-%' order by id offset $1 limit 1`,
      [Math.floor(ARTICLES / 2)],
    )
    const { rows: [category] } = await db.query<{ slug: string }>(`select slug from categories order by id limit 1`)
    const articlePath = `/articles/${article!.id}/${article!.slug}`
    const targets = [
      { name: 'home', path: '/' },
      { name: 'article', path: articlePath },
      { name: 'category', path: `/categories/${category!.slug}` },
      { name: 'rss', path: '/rss' },
      { name: 'sitemap', path: '/sitemap.xml' },
    ]

    const rows: Row[] = []
    for (const target of targets) {
      log(`[bench] ${target.name}: warming up…`)
      await measure(base + target.path, { duration: WARMUP })
      log(`[bench] ${target.name}: measuring ${DURATION} s…`)
      const result = await measure(base + target.path, { duration: DURATION })
      rows.push({
        ...target,
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        ok: result['2xx'],
        errors: result.non2xx + result.errors + result.timeouts,
      })
    }

    // Exactness: a timed run ends with requests in flight that the server serves
    // (and counts) but autocannon no longer records. So: restart cleanly (which
    // flushes), then send a fixed number of requests, all awaited, and compare.
    await stopProduction(server)
    const viewsOf = async () => Number((await db.query<{ v: string }>(`select view_count v from articles where id = $1`, [article!.id])).rows[0]!.v)
    const before = await viewsOf()
    server = await startServer()
    const exact = await measure(base + articlePath, { amount: EXACT_REQUESTS })
    await stopProduction(server)
    const counted = (await viewsOf()) - before
    await db.end()

    const cpu = os.cpus()[0]?.model ?? 'unknown CPU'
    console.log(`\nInkwell reader site — ${ARTICLES} articles, ${os.cpus().length} cores (${cpu}), Node ${process.version}`)
    console.log(`autocannon c=${CONNECTIONS}, ${DURATION} s after a ${WARMUP} s warm-up\n`)
    console.log('| page | path | req/s | p50 ms | p99 ms | 2xx | errors |')
    console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |')
    for (const r of rows) {
      const p = r.path.length > 40 ? r.path.slice(0, 37) + '…' : r.path
      console.log(`| ${r.name} | ${p} | ${Math.round(r.rps).toLocaleString('en')} | ${r.p50} | ${r.p99} | ${r.ok.toLocaleString('en')} | ${r.errors} |`)
    }
    const served = exact['2xx']
    console.log(`\nview counts: ${served.toLocaleString('en')} article requests (${exact.non2xx + exact.errors} failed), ${counted.toLocaleString('en')} counted in the database after a clean shutdown → ${counted === served && served === EXACT_REQUESTS ? 'exact' : 'MISMATCH'}`)
    if (counted !== served || served !== EXACT_REQUESTS) process.exitCode = 1
  } finally {
    if (!args.keep) await admin(`drop database if exists "${dbName}" with (force)`)
  }
}

await main()
