/**
 * `npm run bench:import [-- --posts 10000 --comments 10]`: writes a WordPress
 * export of that many posts (each with `comments` comments, a third of them
 * answers), imports it with `import:wordpress` into a fresh database, and
 * prints the time, the rate, this process's peak memory (RSS) and the load
 * average (the figures mean little on a busy machine). Where the time goes:
 * `node --cpu-prof --import tsx bench/import.ts --posts 1000` (a .cpuprofile
 * for Chrome's DevTools); the live heap after each tenth: `node --expose-gc --import tsx bench/import.ts`.
 * Issue 30's target: 10,000 posts and 100,000 comments in ≤ 2 minutes, ≤ 400 MB. It runs with the
 * import commands' bounded heap (scripts/importHeap.mjs) unless NODE_OPTIONS sets one.
 */
import { mkdtempSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { parseArgs } from 'node:util'

import v8 from 'node:v8'

import { importHeapFlags } from '../scripts/importHeap.mjs'
import { writeBigWxr } from '../tests/helpers/wxrFixture'
import { admin, adminUrl } from './adminDatabase'

// Measured as `npm run blog -- import:wordpress` runs: with the import's bounded heap (scripts/importHeap.mjs),
// unless NODE_OPTIONS names another (`--max-old-space-size=4096` measures V8's default behaviour).
const heapFlags = importHeapFlags()
if (heapFlags.length) process.exit(spawnSync(process.execPath, [...process.execArgv, ...heapFlags, ...process.argv.slice(1)], { stdio: 'inherit' }).status ?? 1)

/** With `node --expose-gc`, the heap still in use after a collection: what the import keeps, apart from what the collector has not taken back yet. */
const liveHeap = () => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) return ''
  gc()
  return `, live heap ${(process.memoryUsage().heapUsed / 1024 ** 2).toFixed(0)} MB`
}

const { values } = parseArgs({ options: { posts: { type: 'string', default: '10000' }, comments: { type: 'string', default: '10' } } })
const posts = Number(values.posts)
const comments = Number(values.comments)

const name = `inkwell_bench_import_${Date.now().toString(36)}`
const databaseUrl = adminUrl().replace(/\/[^/]*$/, `/${name}`)
const dir = mkdtempSync(path.join(os.tmpdir(), 'inkwell-bench-import-'))
const file = path.join(dir, 'export.xml')
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  PAYLOAD_SECRET: 'bench-secret-not-for-production-0123456789',
  BASE_URL: 'http://localhost:3000',
  DATA_DIR: dir,
  LOG_LEVEL: 'error',
  NODE_ENV: 'test' as const,
  QUEUE_CONNECTION: 'sync',
}

await admin(`create database "${name}"`)
try {
  const migrated = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/migrate.ts'], { env, stdio: 'inherit' })
  if (migrated.status !== 0) throw new Error('migrations failed')
  Object.assign(process.env, env)

  let started = Date.now()
  await writeBigWxr(file, 'https://old.example', posts, comments)
  console.log(`wrote ${posts} posts and ${posts * comments} comments: ${(statSync(file).size / 1024 ** 2).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`)

  const [{ getPayload }, { default: config }, { registeredCommands }, { closePayload }] = await Promise.all([
    import('payload'),
    import('../payload.config'),
    import('../jobs/commands'),
    import('../src/lib/boot'),
  ])
  const payload = await getPayload({ config })
  try {
    const command = registeredCommands(payload).commands.find((c) => c.name === 'import:wordpress')!
    let lastPercent = -1
    const loadAtStart = os.loadavg().map((l) => l.toFixed(2)).join(', ')
    started = Date.now()
    const summary = await command.run(
      payload,
      {
        log: (line) => (line.startsWith('  ') && !line.startsWith('  failed') ? undefined : console.log(line)),
        progress: (done, total) => {
          const percent = Math.floor((done / total) * 10) * 10
          if (percent !== lastPercent) console.log(`  ${done}/${total} items, ${((Date.now() - started) / 1000).toFixed(1)} s, rss ${(process.memoryUsage().rss / 1024 ** 2).toFixed(0)} MB${liveHeap()}`)
          lastPercent = percent
        },
      },
      [file, '--no-media'],
    )
    const seconds = (Date.now() - started) / 1000
    console.log(summary)
    console.log(`load average (1, 5, 15 min) at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')} on ${os.cpus().length} CPUs (started at ${loadAtStart})`)
    console.log(`import: ${seconds.toFixed(1)} s for ${posts} posts and ${posts * comments} comments (${(posts / seconds).toFixed(0)} posts/s); peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (heap limit ${(v8.getHeapStatistics().heap_size_limit / 1024 ** 2).toFixed(0)} MB)`)
  } finally {
    await closePayload(payload)
  }
} finally {
  await admin(`drop database if exists "${name}" with (force)`)
}
process.exit(0)
