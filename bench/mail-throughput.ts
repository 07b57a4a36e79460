/**
 * Mail throughput of one worker (issue 32 §4): `npm run bench:mail [-- --burst 400 --steady 100]`
 *
 * A fresh database, pg-boss, a real SMTP server on loopback, and one worker process started the
 * production way (`node scripts/launch.mjs worker`, i.e. `npm run worker`):
 *  1. burst: `--burst` replies are written while no worker runs (this process only sends), then the
 *     worker starts and drains the backlog; mails/s is counted from the first arrival to the last
 *     (goal ≥ 50 per worker);
 *  2. steady: `--steady` replies at 5 a second, each timed from its write to its mail: p50, p95, max
 *     (goal p95 ≤ 2 s).
 */
import { spawn } from 'node:child_process'
import os from 'node:os'
import { parseArgs } from 'node:util'

import { publishEveryReply, startMailBench } from './mailBench'

const { values: args } = parseArgs({ options: { burst: { type: 'string', default: '400' }, steady: { type: 'string', default: '100' } } })
const BURST = Number(args.burst)
const STEADY = Number(args.steady)

const bench = await startMailBench('mail', 'mail-probe', {
  REPLY_RATE_LIMIT: '100000',
  // This process writes and sends jobs; the worker process below works them.
  WORKER: 'off',
})
const { arrivals } = bench

const { bootPayload, closePayload } = await import('../src/lib/boot')
const { getEnv } = await import('../src/lib/env')
const { payload } = await bootPayload({ log: () => {} })
let stopWorker = () => {}
const waitFor = async (ids: number[]) => {
  while (ids.some((i) => !arrivals.has(String(i)))) await new Promise((r) => setTimeout(r, 5))
}
try {
  const create = (email: string, name: string) => payload.create({ collection: 'users', data: { email, name, password: 'bench-password-123' } })
  const author = await create('author@bench.test', 'Author')
  await create('admin@bench.test', 'Admin')
  const reader = await create('reader@bench.test', 'Reader')
  await publishEveryReply(payload)
  const article = await payload.create({ collection: 'articles', data: { title: 'Throughput', format: 'markdown', markdown: 'x', status: 'published', author: author.id } })
  const written = new Map<number, number>()
  const reply = async (i: number) => {
    written.set(i, performance.now())
    await payload.create({
      collection: 'replies',
      data: { article: article.id, body: `mail-probe-${i}` },
      overrideAccess: false,
      user: { ...reader, collection: 'users' } as never,
    })
  }

  // 1. burst: the backlog first, then one worker drains it
  const burst = Array.from({ length: BURST }, (_, i) => i)
  const writing = performance.now()
  for (let i = 0; i < BURST; i += 20) await Promise.all(burst.slice(i, i + 20).map(reply))
  const writtenIn = (performance.now() - writing) / 1000
  const worker = spawn(process.execPath, ['scripts/launch.mjs', 'worker'], { env: { ...process.env, WORKER: 'on', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'] })
  stopWorker = () => void worker.kill('SIGTERM')
  await waitFor(burst)
  const times = burst.map((i) => arrivals.get(String(i))!).sort((a, b) => a - b)
  const span = (times.at(-1)! - times[0]!) / 1000
  const rate = (BURST - 1) / span

  // 2. steady, 5 replies a second
  const steady = Array.from({ length: STEADY }, (_, i) => BURST + i)
  const started = performance.now()
  for (const [n, i] of steady.entries()) {
    const due = started + n * 200
    if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()))
    void reply(i)
  }
  await waitFor(steady)
  const latencies = steady.map((i) => arrivals.get(String(i))! - written.get(i)!).sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!

  const poolSize = getEnv().mail.poolSize
  console.log(`\nMail delivery, pgboss mode, one worker process (npm run worker; MAIL_POOL_SIZE=${poolSize}, 10 mail jobs at once), real SMTP on loopback (${os.cpus().length} cores, Node ${process.version})\n`)
  console.log('| backlog mails | written in s | drained in s | mails/s | steady replies/s | p50 ms | p95 ms | max ms |')
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
  console.log(`| ${BURST} | ${writtenIn.toFixed(1)} | ${span.toFixed(1)} | ${rate.toFixed(0)} | 5 | ${pct(50).toFixed(0)} | ${pct(95).toFixed(0)} | ${latencies.at(-1)!.toFixed(0)} |`)
  console.log(`\ngoal ≥ 50 mails/s: ${rate >= 50 ? 'met' : 'NOT met'}; goal p95 ≤ 2000 ms at 5 replies/s: ${pct(95) <= 2000 ? 'met' : 'NOT met'}`)
} finally {
  stopWorker()
  await closePayload(payload)
  await bench.close()
}
process.exit(0)
