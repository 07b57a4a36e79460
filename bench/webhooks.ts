/**
 * Webhook delivery latency and a burst, in pgboss mode: `npm run bench:webhooks [-- --single 100 --burst 1000]`
 *
 * A fresh database, the app's own composition (OUTBOUND_ALLOW_PRIVATE=true so the
 * receiver may sit on loopback), a pg-boss worker in this process, and a real
 * receiver that verifies every signature with the `standardwebhooks` library.
 *  - single: one tag at a time; each is timed from the commit of its write (the
 *    create returned) to its arrival at the receiver.
 *  - burst: `--burst` tags created 10 at a time as fast as possible; each timed
 *    the same way, and every event counted (all delivered, none twice).
 */
import http from 'node:http'
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'

import { Webhook } from 'standardwebhooks'

import { admin, adminUrl } from './adminDatabase'

const { values: args } = parseArgs({ options: { single: { type: 'string', default: '100' }, burst: { type: 'string', default: '1000' } } })
const SINGLE = Number(args.single)
const BURST = Number(args.burst)

let verifier: Webhook | undefined
let unverified = 0
const arrivals = new Map<string, number[]>() // tag name → arrival times (more than one would be a duplicate)
const receiver = http.createServer((req, res) => {
  let raw = ''
  req.on('data', (c) => (raw += c))
  req.on('end', () => {
    const at = performance.now()
    try {
      verifier!.verify(raw, Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])))
    } catch {
      unverified++
      return res.writeHead(401).end()
    }
    const name = String(JSON.parse(raw).data?.name)
    arrivals.set(name, [...(arrivals.get(name) ?? []), at])
    res.writeHead(204).end()
  })
})
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()))
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`

const dbName = `inkwell_bench_webhooks_${Date.now().toString(36)}`
await admin(`create database "${dbName}"`)
Object.assign(process.env, {
  DATABASE_URL: adminUrl().replace(/\/postgres$/, `/${dbName}`),
  QUEUE_CONNECTION: 'pgboss',
  OUTBOUND_ALLOW_PRIVATE: 'true',
  PAYLOAD_SECRET: 'bench-secret-not-for-production-0123456789',
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'inkwell-bench-')),
  LOG_LEVEL: 'warn',
  NODE_ENV: 'development',
})

const { bootPayload, closePayload } = await import('../src/lib/boot')
const { payload } = await bootPayload({ log: () => {} })
const waitFor = async (names: string[]) => {
  while (!names.every((n) => arrivals.has(n))) await new Promise((r) => setTimeout(r, 2))
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
try {
  await payload.create({ collection: 'users', data: { email: 'owner@bench.test', name: 'Owner', password: 'bench-password-123' } })
  const hook = (await payload.create({ collection: 'webhooks', data: { url: receiverUrl, events: ['tag.created'] } })) as unknown as { secret: string }
  verifier = new Webhook(hook.secret)

  const single: number[] = []
  for (let i = 0; i < SINGLE; i++) {
    const name = `single-${i}`
    await payload.create({ collection: 'tags', data: { name } })
    const committed = performance.now()
    await waitFor([name])
    single.push(arrivals.get(name)![0]! - committed)
  }
  single.sort((a, b) => a - b)
  console.log(`[bench] ${SINGLE} single events done`)

  const committedAt = new Map<string, number>()
  const burstStarted = performance.now()
  const names = Array.from({ length: BURST }, (_, i) => `burst-${i}`)
  for (let i = 0; i < names.length; i += 10) {
    await Promise.all(
      names.slice(i, i + 10).map(async (name) => {
        await payload.create({ collection: 'tags', data: { name } })
        committedAt.set(name, performance.now())
      }),
    )
  }
  const written = performance.now()
  await waitFor(names)
  const drained = performance.now()
  await new Promise((r) => setTimeout(r, 2_000)) // time for a duplicate to show up
  const burst = names.map((n) => arrivals.get(n)![0]! - committedAt.get(n)!).sort((a, b) => a - b)
  const duplicates = names.filter((n) => arrivals.get(n)!.length > 1).length

  const { query } = await import('../src/lib/pool')
  const retried = await query<{ error: string | null; status: number | null; n: string }>(
    payload,
    `select a->>'error' as error, (a->>'status')::int as status, count(*) as n from webhook_deliveries, jsonb_array_elements(attempts) a
      where coalesce((a->>'status')::int, 0) not between 200 and 299 group by 1, 2 order by 3 desc limit 5`,
  )
  const row = (figure: string, goal: string, measured: string, ok: boolean) => console.log(`| ${figure} | ${goal} | ${measured} | ${ok ? 'met' : 'NOT met'} |`)
  console.log(`\nWebhook delivery, pgboss mode, receiver on loopback verifying signatures (${os.cpus().length} cores, Node ${process.version})\n`)
  console.log('| figure | goal | measured | verdict |')
  console.log('| --- | --- | ---: | --- |')
  row(`commit → receiver, one at a time, p95 (${SINGLE} events)`, '≤ 1000 ms', `${pct(single, 95).toFixed(0)} ms (p50 ${pct(single, 50).toFixed(0)}, max ${single.at(-1)!.toFixed(0)})`, pct(single, 95) <= 1000)
  row(`commit → receiver in a burst of ${BURST}, p95`, '≤ 1000 ms', `${pct(burst, 95).toFixed(0)} ms (p50 ${pct(burst, 50).toFixed(0)}, max ${burst.at(-1)!.toFixed(0)})`, pct(burst, 95) <= 1000)
  row(`burst of ${BURST}: delivered`, `${BURST}`, `${names.filter((n) => arrivals.has(n)).length}`, names.every((n) => arrivals.has(n)))
  row(`burst of ${BURST}: delivered twice`, '0', `${duplicates}`, duplicates === 0)
  row('signatures that failed verification', '0', `${unverified}`, unverified === 0)
  for (const r of retried) console.log(`failed attempt: ${r.n} × ${r.status ?? r.error}`)
  console.log(`\nburst written in ${((written - burstStarted) / 1000).toFixed(1)} s, all delivered ${((drained - burstStarted) / 1000).toFixed(1)} s after the first write`)
} finally {
  await closePayload(payload)
  receiver.close()
  await admin(`drop database if exists "${dbName}" with (force)`)
}
process.exit(0)
