/**
 * Issue 32 §4: the database restarts under load. The embedded PostgreSQL is
 * started the way `npm start` starts it (src/lib/database.ts), on a data
 * folder and port of this file's own — never the machine's server — and is
 * then killed (-9, a crash) and shut down (SIGINT, a fast shutdown) while a
 * signed-in reader keeps posting replies through Payload's REST handling:
 *  - the server is started again by the watch, without restarting Inkwell;
 *  - while it is away, writes answer 503 with Retry-After, never 500;
 *  - writes succeed again within 5 s of the database accepting connections
 *    (the pool replaces its dead connections by itself);
 *  - every reply answered 2xx is stored, and none other.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { databaseAnswers, isDatabaseUnavailable, outageKind } from '../../src/lib/databaseOutage'
import { serverOnDataFolder, startEmbeddedDatabase, type RunningDatabase } from '../../src/lib/database'
import { poolOf } from '../../src/lib/pool'
import { freePort } from '../helpers/app'
import { writeArticle } from '../helpers/articles'
import { migrate } from '../helpers/databaseSetup'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { BASE, Browser } from '../helpers/restClient'
import { giveRole, PASSWORD, register } from '../helpers/users'

let dataDir: string
let database: RunningDatabase
let databaseUrl: string
let t: TestPayload
let reader: Browser
let articleId: number
const lost: Error[] = []
const logged: string[] = []

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-restart-'))
  chmodSync(dataDir, 0o755) // the server runs as the `postgres` user when the tests run as root
  const port = await freePort()
  database = await startEmbeddedDatabase({ embeddedDatabase: true, dataDir, embeddedPgPort: port }, (line) => logged.push(line), { onLost: (error) => lost.push(error) })
  databaseUrl = `postgres://postgres:postgres@127.0.0.1:${port}/inkwell`
  await copyTemplate(databaseUrl)
  t = await createTestPayload({ REPLY_RATE_LIMIT: '1000' }, { database: { name: 'inkwell', url: databaseUrl, drop: async () => {} } })
  await register(t.payload, 'owner@example.test')
  const author = await giveRole(t.payload, await register(t.payload, 'author@example.test'), 'author')
  await register(t.payload, 'reader@example.test')
  articleId = (await writeArticle(t.payload, author, 'Through the restart')).id
  reader = new Browser(t.payload, t.databaseName, '10.0.0.9', BASE)
  expect((await reader.login('reader@example.test', PASSWORD)).status).toBe(200)
}, 180_000)

afterAll(async () => {
  await t?.destroy()
  await database?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/**
 * The migrated template, copied onto this file's server: pg_dump | psql when the PostgreSQL client
 * tools can read the template's server (a second or two), else the migrations run afresh (slower).
 */
async function copyTemplate(url: string): Promise<void> {
  const { adminUrl, template } = inject('database')
  const source = new URL(adminUrl)
  source.pathname = `/${template}`
  try {
    const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', source.toString()], { maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] })
    execFileSync('psql', ['--quiet', '--set', 'ON_ERROR_STOP=1', url], { input: dump, stdio: ['pipe', 'ignore', 'pipe'] })
  } catch {
    await migrate(url)
  }
}

/** Resolves when a fresh connection to the database succeeds (the moment it accepts connections again). */
async function acceptsConnections(): Promise<number> {
  for (;;) {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 1000 })
    client.on('error', () => {})
    try {
      await client.connect()
      await client.query('select 1')
      return Date.now()
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50))
    } finally {
      await client.end().catch(() => {})
    }
  }
}

async function postReply(n: number) {
  const reply = await reader.request('/api/replies', { json: { article: articleId, body: `Reply ${n} through the restart` } })
  return { status: reply.status, retryAfter: reply.headers.get('retry-after'), at: Date.now() }
}

describe('the embedded PostgreSQL restarts under writes', () => {
  it.each([
    ['crashes (kill -9)', 'SIGKILL'],
    ['is shut down fast (SIGINT)', 'SIGINT'],
  ] as const)('when it %s: 503 with Retry-After meanwhile, started again by the watch, writes back within 5 s, no 2xx lost', async (_, signal) => {
    const before = (await t.payload.count({ collection: 'replies' })).totalDocs
    const running = serverOnDataFolder(path.join(dataDir, 'postgres'))!
    expect(running).toBeDefined()
    process.kill(running.pid, signal)
    const answers: Awaited<ReturnType<typeof postReply>>[] = []
    const back = acceptsConnections()
    let n = 0
    // Writes keep coming (10 a second) until one succeeds after the database is back.
    for (;;) {
      const answer = await postReply(n++)
      answers.push(answer)
      if (answer.status < 300) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const acceptedAt = await back
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s !== 201 && s !== 503), statuses.join(',')).toEqual([])
    expect(statuses[0], 'the first write after the crash').toBe(503)
    expect(answers.filter((a) => a.status === 503).every((a) => a.retryAfter === '5')).toBe(true)
    // Back within 5 s of the database accepting connections, without restarting anything.
    expect(answers.at(-1)!.at - acceptedAt).toBeLessThan(5_000)
    // The watch started the server again (a new process), and nothing was given up.
    const restarted = serverOnDataFolder(path.join(dataDir, 'postgres'))!
    expect(restarted.pid).not.toBe(running.pid)
    expect(lost).toEqual([])
    expect(logged.some((line) => /exited .*starting it again/.test(line))).toBe(true)
    // Every 2xx is stored; the 503s wrote nothing.
    expect((await t.payload.count({ collection: 'replies' })).totalDocs).toBe(before + statuses.filter((s) => s === 201).length)
  }, 90_000)

  it('takes a refused socket for a database outage only when the database does not answer either', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:2525'), { code: 'ECONNREFUSED' })
    expect(outageKind(refused)).toBe('maybe')
    // The restarts above may have left a "does not answer" probe cached for a second (or the
    // pool is still reconnecting on a loaded machine): the rule is about a database that answers.
    await expect.poll(() => databaseAnswers(poolOf(t.payload)), { timeout: 20_000, interval: 500 }).toBe(true)
    expect(await isDatabaseUnavailable(refused, poolOf(t.payload))).toBe(false) // an SMTP server's, say
    expect(outageKind(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe('database')
    expect(outageKind(new Error('Failed query', { cause: new Error('Connection terminated unexpectedly') }))).toBe('database')
    expect(outageKind(new Error('duplicate key value violates unique constraint'))).toBeUndefined()
  })
})
