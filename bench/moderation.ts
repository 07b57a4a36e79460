/**
 * Moderation costs: `npm run bench:moderation [-- --replies 300]`
 *
 * 1. Scoring one reply in memory (tokenise, classifier, signals) with a model
 *    trained on the whole corpus (tests/fixtures/moderation-corpus.json): every
 *    corpus reply scored 20 times, plus a 20 KB reply. Goal p95 ≤ 5 ms.
 * 2. Posting a reply through Payload as a reader (Local API, access on) on a
 *    fresh, migrated database, QUEUE_CONNECTION=sync without mail, with the
 *    classifier trained (its counts stored as moderators' decisions would),
 *    the moderation plugin composed and then left out. Goal p95 ≤ 50 ms.
 */
import { readFileSync, mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'

import { emptyModel, learn } from '../src/plugins/moderation/classifier'
import { scoreText } from '../src/plugins/moderation/score'
import { tokenize } from '../src/plugins/moderation/tokenize'
import { admin, adminUrl } from './adminDatabase'

const { values: args } = parseArgs({ options: { replies: { type: 'string', default: '300' } } })
const REPLIES = Number(args.replies)
const corpus: { label: 'spam' | 'ham'; text: string }[] = JSON.parse(readFileSync('tests/fixtures/moderation-corpus.json', 'utf8'))

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b)
  return { p50: pct(sorted, 50), p95: pct(sorted, 95), max: sorted.at(-1)! }
}

// 1. Scoring in memory.
const model = emptyModel()
for (const s of corpus) learn(model, tokenize(s.text), s.label)
const scoring: number[] = []
for (let round = 0; round < 20; round++) {
  for (const s of corpus) {
    const started = performance.now()
    scoreText(model, s.text, { accountAgeMinutes: 5, recentReplies: 1, sameTextElsewhere: 0 })
    scoring.push(performance.now() - started)
  }
}
const huge = 'BUY CHEAP PILLS NOW https://bit.ly/x 立即联系微信 '.repeat(500).slice(0, 20_000) // judged on its first 5 000 characters
const hugeTimes: number[] = []
for (let i = 0; i < 50; i++) {
  const started = performance.now()
  scoreText(model, huge)
  hugeTimes.push(performance.now() - started)
}
const s1 = summary(scoring)
const s2 = summary(hugeTimes)

// 2. Posting replies through Payload, with and without the plugin.
async function postingTimes(without: boolean): Promise<number[]> {
  const dbName = `inkwell_bench_moderation_${without ? 'off' : 'on'}_${Date.now().toString(36)}`
  await admin(`create database "${dbName}"`)
  Object.assign(process.env, {
    DATABASE_URL: adminUrl().replace(/\/postgres$/, `/${dbName}`),
    QUEUE_CONNECTION: 'sync',
    PAYLOAD_SECRET: 'bench-secret-not-for-production-0123456789',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'inkwell-bench-')),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production', // as `npm start` runs it: development mode adds Payload's own checks to every write
    SEED_ON_START: 'false',
  })
  const [{ getPayload }, { inkwellConfig }, { inkwellPlugins }, { buildEnv }, { closePayload, migrateLocked }, { query }] = await Promise.all([
    import('payload'),
    import('../payload.config'),
    import('../src/plugins'),
    import('../src/lib/env'),
    import('../src/lib/boot'),
    import('../src/lib/pool'),
  ])
  const env = buildEnv(process.env)
  const config = await inkwellConfig(env, inkwellPlugins(env, { without: without ? ['moderation', 'notifications'] : ['notifications'] }))
  const payload = await getPayload({ config, key: dbName })
  try {
    await migrateLocked(payload, () => {})
    // The classifier as moderators would have taught it: the corpus's counts.
    const rows = [['#docs', model.docs.spam, model.docs.ham], ['#words', model.words.spam, model.words.ham], ...[...model.tokens].map(([t, c]) => [t, c.spam, c.ham])]
    await query(payload, `insert into moderation_tokens (token, spam, ham) select e->>0, (e->>1)::int, (e->>2)::int from jsonb_array_elements($1::jsonb) e`, [JSON.stringify(rows)])
    const create = (email: string, name: string) => payload.create({ collection: 'users', data: { email, name, password: 'bench-password-123' } as never })
    const author = await create('owner@bench.test', 'Owner')
    await create('admin@bench.test', 'Admin')
    const readers = await Promise.all(Array.from({ length: 10 }, (_, i) => create(`reader${i}@bench.test`, `Reader ${i}`)))
    const article = await payload.create({ collection: 'articles', data: { title: 'Bench', format: 'markdown', markdown: 'x', status: 'published', author: author.id } as never })
    const genuine = corpus.filter((s) => s.label === 'ham')
    const times: number[] = []
    for (let i = 0; i < REPLIES; i++) {
      const reader = readers[i % readers.length]!
      const started = performance.now()
      await payload.create({
        collection: 'replies',
        data: { article: article.id, body: `${genuine[i % genuine.length]!.text} (${i})` } as never,
        overrideAccess: false,
        user: { ...reader, collection: 'users' } as never,
      })
      times.push(performance.now() - started)
    }
    return times.slice(20) // the first replies warm the caches and the JIT
  } finally {
    await closePayload(payload)
    await admin(`drop database if exists "${dbName}" with (force)`)
  }
}
const on = summary(await postingTimes(false))
const off = summary(await postingTimes(true))

console.log(`\nModeration, ${corpus.length} corpus replies (${os.cpus().length} cores, Node ${process.version})\n`)
console.log('| measure | p50 ms | p95 ms | max ms | goal |')
console.log('| --- | ---: | ---: | ---: | --- |')
console.log(`| score one reply (in memory) | ${s1.p50.toFixed(3)} | ${s1.p95.toFixed(3)} | ${s1.max.toFixed(2)} | p95 ≤ 5 ms: ${s1.p95 <= 5 ? 'met' : 'NOT met'} |`)
console.log(`| score a 20 KB reply | ${s2.p50.toFixed(2)} | ${s2.p95.toFixed(2)} | ${s2.max.toFixed(2)} | p95 ≤ 5 ms: ${s2.p95 <= 5 ? 'met' : 'NOT met'} |`)
console.log(`| post a reply, moderation on | ${on.p50.toFixed(1)} | ${on.p95.toFixed(1)} | ${on.max.toFixed(1)} | p95 ≤ 50 ms: ${on.p95 <= 50 ? 'met' : 'NOT met'} |`)
console.log(`| post a reply, moderation left out | ${off.p50.toFixed(1)} | ${off.p95.toFixed(1)} | ${off.max.toFixed(1)} | (for comparison) |`)
process.exit(0)
