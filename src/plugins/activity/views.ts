import { randomUUID } from 'node:crypto'

import { isbot } from 'isbot'
import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'
import type { Payload } from 'payload'

import { dayHashKeys, finishSyncLua, readBeside, syncDayHashes } from './dayHashes'
import { dayIn } from './day'
import { payloadSlot } from './payloadSlot'
import { SerialFlush } from './serialFlush'
import { metrics } from '../../lib/metrics'

/**
 * Article view counting without a write per view on a page's path: hits are
 * counted in memory, per day (APP_TIMEZONE), and flushed in batches (every
 * few seconds, sooner under load, and on shutdown) to a sink:
 *
 *  - PostgreSQL (no REDIS_URL): articles.view_count and article_view_days;
 *  - Redis (REDIS_URL): HINCRBY into a hash per day, moved to PostgreSQL by
 *    the daily `sync-article-view-count`.
 *
 * Exactly once: every batch carries an id, and both sinks apply an id at most
 * once (Redis: a marker set in the same script; PostgreSQL: a row of
 * applied_view_batches in the same statement). A batch whose write failed or
 * timed out — a paused Redis may still apply it later — is retried unchanged,
 * with the same id, so it is neither lost nor counted twice.
 */
export interface ViewCounter {
  /** Count one view of an article. */
  hit(articleId: number): void
  /** Views of this article counted here since start (flushed or not). */
  total(articleId: number): number
  /** Views counted here and not yet written to the database. */
  pending(articleId: number): number
  /** Views already in Redis and not yet in the database, by article (empty without Redis). */
  unsynced(articleIds: number[]): Promise<Map<number, number>>
  /** Write pending views now. */
  flush(): Promise<void>
  /** Flush and stop the timer (clean shutdown). */
  stop(): Promise<void>
}

type RequestLike = { method?: string; headers: Record<string, string | string[] | undefined> | { get(name: string): string | null } }

function header(req: RequestLike, name: string): string {
  const h = req.headers
  const value = typeof (h as { get?: unknown }).get === 'function' ? (h as { get(n: string): string | null }).get(name) : (h as Record<string, string | string[] | undefined>)[name]
  return Array.isArray(value) ? value.join(',') : (value ?? '')
}

/**
 * Whether a request for an article page is a person reading it: a GET (not
 * HEAD), not a browser prefetch (`Sec-Purpose: prefetch`, or the older
 * `Purpose`/`X-Moz`/`X-Purpose` headers) and not a known crawler (isbot's
 * kept list of user agents). Redirects never reach the counting code.
 */
export function shouldCountView(req: RequestLike): boolean {
  const method = req.method ?? 'GET'
  if (method !== 'GET' && method.toUpperCase() !== 'GET') return false
  // Each header read only when sent (browsers send none of them on a plain visit): this runs on every cached hit.
  for (const name of PURPOSE_HEADERS) {
    const purpose = header(req, name)
    if (purpose && NOT_A_READING.test(purpose)) return false
  }
  return !isKnownBot(header(req, 'user-agent'))
}
const PURPOSE_HEADERS = ['sec-purpose', 'purpose', 'x-purpose', 'x-moz']
const NOT_A_READING = /prefetch|preview/i

/**
 * isbot's pattern is one large regular expression (a few microseconds per
 * test, on every counted view of a cached page), while a site sees a few
 * hundred distinct user agents at a time: the answers are kept, bounded.
 */
const botAnswers = new LRUCache<string, boolean>({ max: 2_000 })
function isKnownBot(userAgent: string): boolean {
  if (userAgent.length > 512) return isbot(userAgent) // rare and unbounded: not kept
  let answer = botAnswers.get(userAgent)
  if (answer === undefined) botAnswers.set(userAgent, (answer = isbot(userAgent)))
  return answer
}

/** Views of one day, to be applied once: `id` makes a retry harmless. */
export type ViewBatch = { id: string; day: string; counts: Map<number, number> }

export type ViewSink = {
  /** Applies a batch at most once per `batch.id`; throws when it cannot tell that it did. */
  write(batch: ViewBatch): Promise<void>
  /** Views already written to the sink but not yet in articles.view_count (Redis's share), by article. */
  unsynced?(articleIds: number[]): Promise<Map<number, number>>
}

/** A plain function is a sink too (tests, and writers without a Redis share). */
export type ViewWriter = ViewSink | ViewSink['write']

export class BatchedViewCounter implements ViewCounter {
  private totals = new Map<number, number>()
  /** Hits not yet in a batch, by day then article. */
  private pendingHits = new Map<string, Map<number, number>>()
  /** Batches made but not yet confirmed written, oldest first; retried unchanged. */
  private unsent: ViewBatch[] = []
  private pendingCount = 0
  private flusher: SerialFlush
  private sink: ViewSink

  constructor(
    writer: ViewWriter,
    private options: {
      intervalMs?: number
      maxPending?: number
      onError?: (error: unknown) => void
      /** The day a hit belongs to (default: UTC). */
      dayOf?: (at: Date) => string
    } = {},
  ) {
    this.sink = typeof writer === 'function' ? { write: writer } : writer
    this.flusher = new SerialFlush(() => this.flushOnce(), options.intervalMs ?? 5_000)
  }

  hit(articleId: number): void {
    const day = (this.options.dayOf ?? ((at) => dayIn('UTC', at)))(new Date())
    let counts = this.pendingHits.get(day)
    if (!counts) this.pendingHits.set(day, (counts = new Map()))
    counts.set(articleId, (counts.get(articleId) ?? 0) + 1)
    this.totals.set(articleId, (this.totals.get(articleId) ?? 0) + 1)
    if (++this.pendingCount >= (this.options.maxPending ?? 5_000) && !this.flusher.waiting) void this.flush()
  }

  total(articleId: number): number {
    return this.totals.get(articleId) ?? 0
  }

  /** Counted here and not confirmed written: waiting for a batch, or in one being (re)tried. */
  pending(articleId: number): number {
    let n = 0
    for (const counts of this.pendingHits.values()) n += counts.get(articleId) ?? 0
    for (const batch of this.unsent) n += batch.counts.get(articleId) ?? 0
    return n
  }

  /** Views in the sink and not yet in the database (Redis's share); empty for PostgreSQL. */
  unsynced(articleIds: number[]): Promise<Map<number, number>> {
    return this.sink.unsynced?.(articleIds) ?? Promise.resolve(new Map())
  }

  /** One at a time (see SerialFlush); hits arriving meanwhile wait for the next one. */
  flush(): Promise<void> {
    return this.flusher.flush()
  }

  private async flushOnce(): Promise<void> {
    // Older batches first, unchanged; new hits become a batch only once they are all written,
    // so an outage holds one batch per day plus the running counts, not a batch per attempt.
    if (!(await this.writeUnsent())) return
    for (const [day, counts] of this.pendingHits) this.unsent.push({ id: randomUUID(), day, counts })
    this.pendingHits = new Map()
    this.pendingCount = 0
    await this.writeUnsent()
  }

  private async writeUnsent(): Promise<boolean> {
    while (this.unsent.length > 0) {
      try {
        await this.sink.write(this.unsent[0]!)
        metrics().viewBatches.inc({ outcome: 'written' })
      } catch (error) {
        // Kept as it is, id included: the next flush retries it, and a sink that did apply it ignores the retry.
        metrics().viewBatches.inc({ outcome: 'failed' })
        this.options.onError?.(error)
        return false
      }
      this.unsent.shift()
    }
    return true
  }

  stop(): Promise<void> {
    return this.flusher.stop()
  }
}

type Queryable = { query: (sql: string, params: unknown[]) => Promise<unknown> }

/**
 * Adds one day's views to articles.view_count and article_view_days in one
 * statement (so one transaction), unless a batch with this id was applied
 * before. Views of articles deleted meanwhile are dropped.
 */
export async function applyViewBatch(db: Queryable, batch: ViewBatch): Promise<void> {
  const ids = [...batch.counts.keys()]
  const counts = ids.map((id) => batch.counts.get(id)!)
  await db.query(
    `with fresh as (insert into applied_view_batches (id) values ($1) on conflict do nothing returning id),
          v as (select * from unnest($3::int[], $4::int[]) as v(id, n) where exists (select 1 from fresh)),
          a as (update articles a set view_count = coalesce(a.view_count, 0) + v.n from v where a.id = v.id returning a.id, v.n)
     insert into article_view_days (article_id, day, views) select id, $2::date, n from a
     on conflict (article_id, day) do update set views = article_view_days.views + excluded.views`,
    [batch.id, batch.day, ids, counts],
  )
}

/** Without Redis: each batch goes straight to PostgreSQL. */
export function postgresViewWriter(db: Queryable): ViewSink {
  return { write: (batch) => applyViewBatch(db, batch) }
}

// ---- Redis ---------------------------------------------------------------------

/** A batch marker lives this long: far longer than any retry of that batch. */
const BATCH_MARKER_SECONDS = 7 * 24 * 60 * 60

/**
 * KEYS: day hash, unsynced totals, batch marker, set of live days.
 * ARGV: marker ttl, day, then article id / count pairs.
 * The marker and the increments are one script, so a batch is applied whole, once.
 */
const APPLY_VIEWS_LUA = `
if not redis.call('SET', KEYS[3], '1', 'NX', 'EX', ARGV[1]) then return 0 end
for i = 3, #ARGV, 2 do
  redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1])
end
redis.call('SADD', KEYS[4], ARGV[2])
return 1`

/**
 * After a synced batch is in PostgreSQL: take exactly its views off the
 * unsynced totals (views that arrived since stay), and forget it.
 */
const FINISH_VIEWS_SYNC_LUA = finishSyncLua(
  `  if redis.call('HINCRBY', KEYS[2], synced[i], -tonumber(synced[i + 1])) <= 0 then redis.call('HDEL', KEYS[2], synced[i]) end`,
)

export function viewKeys(prefix: string) {
  const keys = dayHashKeys(prefix, 'views')
  return { ...keys, unsynced: `${keys.base}unsynced`, marker: (id: string) => `${keys.base}batch:${id}` }
}

export type RedisViewSinkOptions = { redis: Redis; prefix: string; readTimeoutMs: number }

/**
 * With Redis: batches are HINCRBY'd into the day's hash and into a running
 * "unsynced" total per article, which pages add to the database's count.
 * Reads are bounded by `readTimeoutMs` (and skipped for a moment after one
 * times out, see boundedRead); past it (Redis slow or down) the last value
 * read is shown, so a page never waits longer.
 */
export function redisViewSink({ redis, prefix, readTimeoutMs }: RedisViewSinkOptions): ViewSink {
  const keys = viewKeys(prefix)
  const lastKnown = new Map<number, number>()
  return {
    async write(batch) {
      const args = [...batch.counts].flatMap(([id, n]) => [String(id), String(n)])
      await redis.eval(APPLY_VIEWS_LUA, 4, keys.day(batch.day), keys.unsynced, keys.marker(batch.id), keys.days, BATCH_MARKER_SECONDS, batch.day, ...args)
    },
    async unsynced(articleIds) {
      if (articleIds.length === 0) return new Map()
      const values = await readBeside(redis, keys.unsynced, articleIds, readTimeoutMs)
      if (values) articleIds.forEach((id, i) => lastKnown.set(id, values[i]!))
      // Bounded memory: the last values are a convenience, not a record.
      if (lastKnown.size > 50_000) lastKnown.clear()
      return new Map(articleIds.map((id) => [id, lastKnown.get(id) ?? 0]))
    },
  }
}

/**
 * `sync-article-view-count`: the day hashes to PostgreSQL (see syncDayHashes),
 * each applied with its in-flight key as batch id, so at most once; then its
 * views leave the unsynced totals.
 */
export async function syncViewsToDatabase(
  redis: Redis,
  db: Queryable,
  prefix: string,
  progress: (done: number, total: number) => void = () => {},
): Promise<{ days: number; articles: number; views: number }> {
  const keys = viewKeys(prefix)
  const synced = await syncDayHashes(
    redis,
    keys,
    { apply: (counts, { key, day }) => applyViewBatch(db, { id: key, day, counts }), finishLua: FINISH_VIEWS_SYNC_LUA, beside: keys.unsynced },
    progress,
  )
  let articles = 0
  let views = 0
  for (const counts of synced) {
    articles += counts.size
    for (const n of counts.values()) views += n
  }
  return { days: synced.length, articles, views }
}

// ---- The process's counter -------------------------------------------------------

/** The view counter of a Payload instance (the activity plugin installs it at init). */
const counterSlot = payloadSlot<ViewCounter>('inkwell.viewCounter')
export const installViewCounter = counterSlot.install
export const viewCounterOf = counterSlot.of

/**
 * The view counts to show, by article id: the database's value, plus views
 * in Redis not yet synced to it, plus views counted in this process and not
 * yet written anywhere. The one function every page showing a count uses
 * (article page, home cards); it waits on Redis at most REDIS_TIMEOUT_MS.
 */
export async function displayedViewCounts(
  payload: Payload,
  articles: { id: number; viewCount?: number | null }[],
): Promise<Map<number, number>> {
  const counter = viewCounterOf(payload)
  const unsynced = counter ? await counter.unsynced(articles.map((a) => a.id)) : new Map<number, number>()
  return new Map(articles.map((a) => [a.id, (a.viewCount ?? 0) + (unsynced.get(a.id) ?? 0) + (counter?.pending(a.id) ?? 0)]))
}

/** displayedViewCounts for one article. */
export async function displayedViewCount(payload: Payload, article: { id: number; viewCount?: number | null }): Promise<number> {
  return (await displayedViewCounts(payload, [article])).get(article.id) ?? 0
}
