/**
 * Reply → mail latency in pgboss mode: `npm run bench:replies [-- --replies 200]`
 *
 * A fresh database, a pg-boss worker and a real SMTP server on loopback; each
 * reply is created through Payload (as the API would) and timed until its mail
 * arrives. Prints p50, p95 and max.
 */
import os from 'node:os'
import { parseArgs } from 'node:util'

import { publishEveryReply, startMailBench } from './mailBench'

const { values: args } = parseArgs({ options: { replies: { type: 'string', default: '200' }, concurrency: { type: 'string', default: '1' } } })
const REPLIES = Number(args.replies)

const bench = await startMailBench('replies', 'latency-probe')
const { arrivals } = bench

const { bootPayload, closePayload } = await import('../src/lib/boot')
// The jobs plugin starts pg-boss and its workers with Payload (QUEUE_CONNECTION=pgboss above).
const { payload } = await bootPayload({ log: () => {} })
try {
  const create = (email: string, name: string) =>
    payload.create({ collection: 'users', data: { email, name, password: 'bench-password-123' } })
  const author = await create('author@bench.test', 'Author')
  await create('admin@bench.test', 'Admin')
  const reader = await create('reader@bench.test', 'Reader')
  await publishEveryReply(payload)
  const article = await payload.create({
    collection: 'articles',
    data: { title: 'Latency', format: 'markdown', markdown: 'x', status: 'published', author: author.id },
  })

  const latencies: number[] = []
  for (let i = 0; i < REPLIES; i++) {
    const started = performance.now()
    await payload.create({
      collection: 'replies',
      data: { article: article.id, body: `latency-probe-${i}` },
      overrideAccess: false,
      user: { ...reader, collection: 'users' } as never,
    })
    while (!arrivals.has(String(i))) await new Promise((r) => setTimeout(r, 2))
    latencies.push(arrivals.get(String(i))! - started)
    if ((i + 1) % 50 === 0) console.log(`[bench] ${i + 1}/${REPLIES} replies`)
  }
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!
  console.log(`\nReply → mail latency, pgboss mode, ${REPLIES} replies, real SMTP on loopback (${os.cpus().length} cores, Node ${process.version})\n`)
  console.log('| p50 ms | p95 ms | max ms |')
  console.log('| ---: | ---: | ---: |')
  console.log(`| ${pct(50).toFixed(0)} | ${pct(95).toFixed(0)} | ${latencies.at(-1)!.toFixed(0)} |`)
  console.log(`\ngoal p95 ≤ 1000 ms: ${pct(95) <= 1000 ? 'met' : 'NOT met'}`)
} finally {
  await closePayload(payload)
  await bench.close()
}
process.exit(0)
