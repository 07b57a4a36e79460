/**
 * View counts with Redis (a server of the test's own, which it kills and
 * pauses) and the daily sync to PostgreSQL: 10,000 views counted by two
 * "web processes" (two counters on their own connections) while Redis is
 * killed, restarted and paused with CLIENT PAUSE come out exact in
 * articles.view_count and article_view_days; a second sync changes nothing;
 * views arriving during a sync are kept; a sync that dies after writing the
 * database is finished by the next without counting twice.
 */
import { randomUUID } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { registeredCommands, type CommandIO } from '../../jobs/commands'
import { dayIn } from '../../src/plugins/activity/day'
import { poolOf } from '../../src/lib/pool'
import { connectRedis, whenReady } from '../../src/lib/redis'
import { BatchedViewCounter, displayedViewCounts, redisViewSink, syncViewsToDatabase, viewCounterOf, viewKeys } from '../../src/plugins/activity/views'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { startOwnRedis, type OwnRedis } from '../helpers/redisServer'
import { createCast } from '../helpers/users'
import { waitUntil } from '../helpers/waitUntil'

const PREFIX = `test:${randomUUID()}:`
const TIME_ZONE = 'Europe/Paris'
let t: TestPayload
let redis: OwnRedis
let articles: number[]
const quiet: CommandIO = { log: () => {}, progress: () => {} }

async function runCommand(name: string): Promise<string> {
  const command = registeredCommands(t.payload).schedules.find((s) => s.name === name)!
  return command.run(t.payload, quiet)
}

async function stored(id: number): Promise<{ viewCount: number; days: number }> {
  const pool = poolOf(t.payload)
  const { rows } = (await pool.query(
    `select coalesce(a.view_count, 0)::int as view_count, coalesce((select sum(views) from article_view_days d where d.article_id = a.id), 0)::int as days
       from articles a where a.id = $1`,
    [id],
  )) as { rows: { view_count: number; days: number }[] }
  return { viewCount: rows[0]!.view_count, days: rows[0]!.days }
}

const yieldToIO = () => new Promise((resolve) => setImmediate(resolve))
/** Far longer than REDIS_TIMEOUT_MS: a read answered within it answered while Redis was paused. */
const PAUSE_MS = 5_000

beforeAll(async () => {
  redis = await startOwnRedis()
  t = await createTestPayload({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: PREFIX, REDIS_TIMEOUT_MS: '200', APP_TIMEZONE: TIME_ZONE })
  const cast = await createCast(t.payload)
  articles = []
  for (const title of ['One', 'Two', 'Three']) {
    const article = await t.payload.create({ collection: 'articles', data: { title, format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id } })
    articles.push(article.id)
  }
})
afterAll(async () => {
  await t?.destroy()
  await redis?.close()
})

describe('view counts in Redis', () => {
  it('counts 10,000 concurrent views exactly across two processes, with Redis killed, restarted and paused meanwhile', async () => {
    const first = viewCounterOf(t.payload)!
    // A second web process: its own counter and connection, flushing every 20 ms.
    const connection = connectRedis({ url: redis.url, timeoutMs: 200, log: () => {} })
    const second = new BatchedViewCounter(redisViewSink({ redis: connection, prefix: PREFIX, readTimeoutMs: 200 }), {
      intervalMs: 20,
      dayOf: (at) => dayIn(TIME_ZONE, at),
    })
    const errors: string[] = []
    const expected = new Map(articles.map((id) => [id, 0]))
    let n = 0
    // 10,000 views in 50 concurrent streams; the first process flushes on its own every 5 s and by hand here.
    async function stream(s: number) {
      for (let i = 0; i < 200; i++) {
        const id = articles[(s + i) % articles.length]!
        ;(n % 2 ? first : second).hit(id)
        expected.set(id, expected.get(id)! + 1)
        n++
        if (n % 500 === 0) void first.flush().catch((e) => errors.push(String(e)))
        await yieldToIO()
      }
    }
    const outage = (async () => {
      await waitUntil(async () => n >= 2_000, { what: '2,000 views' })
      await redis.stop()
      await waitUntil(async () => n >= 4_000, { what: '4,000 views' })
      await redis.start()
      await waitUntil(async () => n >= 6_000, { what: '6,000 views' })
      await redis.pause(1_500)
    })()
    await Promise.all([...Array.from({ length: 50 }, (_, s) => stream(s)), outage])
    expect(n).toBe(10_000)

    // Everything reaches Redis once it answers again, and nothing is left in memory.
    await waitUntil(
      async () => {
        await Promise.all([first.flush(), second.flush()])
        return articles.every((id) => first.pending(id) + second.pending(id) === 0)
      },
      { what: 'both counters to drain', everyMs: 300 },
    )
    await second.stop()
    connection.disconnect()
    expect(errors).toEqual([])

    // Shown before the sync: database value (0) + Redis's unsynced share.
    // (A read slower than REDIS_TIMEOUT_MS on a loaded machine answers the last known value: read until one lands.)
    const shown = await waitUntil(async () => {
      const counts = await displayedViewCounts(t.payload, articles.map((id) => ({ id, viewCount: 0 })))
      return articles.every((id) => counts.get(id) === expected.get(id)) && counts
    }, { what: 'the shown counts to include Redis’s share', timeoutMs: 20_000 })
    for (const id of articles) expect(shown.get(id)).toBe(expected.get(id))

    // HINCRBY per day, in APP_TIMEZONE.
    const dayHash = await redis.client.hgetall(viewKeys(PREFIX).day(dayIn(TIME_ZONE)))
    expect(Object.values(dayHash).reduce((a, b) => a + Number(b), 0)).toBe(10_000)

    const summary = await runCommand('sync-article-view-count')
    expect(summary).toMatch(/synced 10000 view/)
    for (const id of articles) expect(await stored(id)).toEqual({ viewCount: expected.get(id), days: expected.get(id) })
    // Redis holds nothing more for these articles.
    expect(await redis.client.hlen(viewKeys(PREFIX).unsynced)).toBe(0)

    // The sync run twice changes nothing the second time.
    expect(await runCommand('sync-article-view-count')).toMatch(/synced 0 view/)
    for (const id of articles) expect(await stored(id)).toEqual({ viewCount: expected.get(id), days: expected.get(id) })
  })

  it('keeps views that arrive during a sync for the next one', async () => {
    const counter = viewCounterOf(t.payload)!
    const [id] = articles as [number]
    const before = (await stored(id)).viewCount
    for (let i = 0; i < 100; i++) counter.hit(id)
    await counter.flush()
    const pool = poolOf(t.payload)
    // A database that is slow to answer: views arrive and are flushed to Redis while the sync waits on it.
    const slowDb = {
      query: async (sql: string, params: unknown[]) => {
        for (let i = 0; i < 50; i++) counter.hit(id)
        await counter.flush()
        return pool.query(sql, params)
      },
    }
    const connection = await whenReady(connectRedis({ url: redis.url, timeoutMs: 5_000, log: () => {} }), 10_000)
    await syncViewsToDatabase(connection, slowDb, PREFIX)
    expect((await stored(id)).viewCount).toBe(before + 100)
    expect((await displayedViewCounts(t.payload, [{ id, viewCount: before + 100 }])).get(id)).toBe(before + 150)
    await syncViewsToDatabase(connection, pool, PREFIX)
    connection.disconnect()
    expect((await stored(id)).viewCount).toBe(before + 150)
  })

  it('finishes a sync that died after writing the database, without counting twice', async () => {
    const counter = viewCounterOf(t.payload)!
    const [, id] = articles as [number, number]
    const before = (await stored(id)).viewCount
    for (let i = 0; i < 40; i++) counter.hit(id)
    await counter.flush()
    const pool = poolOf(t.payload)
    // The database write commits, then the process dies before clearing Redis.
    const dies = { query: async (sql: string, params: unknown[]) => (await pool.query(sql, params), Promise.reject(new Error('killed'))) }
    const connection = await whenReady(connectRedis({ url: redis.url, timeoutMs: 5_000, log: () => {} }), 10_000)
    await expect(syncViewsToDatabase(connection, dies, PREFIX)).rejects.toThrow('killed')
    expect((await stored(id)).viewCount).toBe(before + 40)
    await syncViewsToDatabase(connection, pool, PREFIX)
    connection.disconnect()
    expect(await stored(id)).toMatchObject({ viewCount: before + 40 })
    expect((await displayedViewCounts(t.payload, [{ id, viewCount: before + 40 }])).get(id)).toBe(before + 40)
  })

  it('answers a page without waiting on a paused Redis: the last known count, at once', async () => {
    const [id] = articles as [number]
    const viewCount = (await stored(id)).viewCount
    const counter = viewCounterOf(t.payload)!
    counter.hit(id)
    await counter.flush()
    expect((await displayedViewCounts(t.payload, [{ id, viewCount }])).get(id)).toBe(viewCount + 1)
    // In effect once the command returns.
    const pausedAt = Date.now()
    await redis.pause(PAUSE_MS)
    counter.hit(id)
    const shown = await displayedViewCounts(t.payload, [{ id, viewCount }])
    // Answered while Redis was still paused, with the last value read plus the view not yet written.
    expect(Date.now() - pausedAt).toBeLessThan(PAUSE_MS)
    expect(shown.get(id)).toBe(viewCount + 2)
    await redis.client.ping() // answered once the pause is over
    await waitUntil(async () => (await counter.flush(), counter.pending(id) === 0), { what: 'the flush after the pause' })
    expect((await displayedViewCounts(t.payload, [{ id, viewCount }])).get(id)).toBe(viewCount + 2)
  })
})
