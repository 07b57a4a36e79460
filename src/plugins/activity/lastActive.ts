/**
 * Last-active times. Every signed-in request calls `touch(userId)` (the
 * activity plugin wraps Payload's auth strategies, so REST, GraphQL, the
 * admin and the reader site all do); a user is recorded at most once a
 * minute per process, and never with a write on the request's path: touches
 * are kept in memory and flushed in the background to
 *
 *  - Redis (REDIS_URL): a hash per day (user → epoch ms) and a "latest" hash
 *    that pages read; `sync-user-actived-at` moves the days to users.actived_at;
 *  - PostgreSQL otherwise: users.actived_at, in one statement per flush.
 *
 * Writes keep the later time (max), so a retried or repeated flush changes nothing.
 */
import type { Redis } from 'ioredis'
import type { Payload } from 'payload'

import { dayHashKeys, finishSyncLua, readBeside, syncDayHashes } from './dayHashes'
import { dayIn } from './day'
import { payloadSlot } from './payloadSlot'
import { SerialFlush } from './serialFlush'

/** At most one recorded touch per user per this interval. */
export const TOUCH_INTERVAL_MS = 60_000

export type ActivitySink = {
  /** Records user → epoch ms (keeping any later time already there). */
  write(day: string, times: Map<number, number>): Promise<void>
  /** Times recorded in Redis and not yet in the database (empty for PostgreSQL). */
  unsynced?(userIds: number[]): Promise<Map<number, number>>
}

export class LastActiveRecorder {
  private lastTouch = new Map<number, number>()
  private pending = new Map<number, number>()
  private flusher: SerialFlush

  constructor(
    private sink: ActivitySink,
    private options: { intervalMs?: number; timeZone?: string; onError?: (error: unknown) => void; now?: () => number } = {},
  ) {
    this.flusher = new SerialFlush(() => this.flushOnce(), options.intervalMs ?? 10_000)
  }

  /** Synchronous and in memory: safe on every request. */
  touch(userId: number): void {
    const now = this.options.now?.() ?? Date.now()
    const last = this.lastTouch.get(userId)
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return
    this.lastTouch.set(userId, now)
    this.pending.set(userId, Math.max(now, this.pending.get(userId) ?? 0))
  }

  /** Touched here and not yet written. */
  unflushed(userId: number): number | undefined {
    return this.pending.get(userId)
  }

  unsynced(userIds: number[]): Promise<Map<number, number>> {
    return this.sink.unsynced?.(userIds) ?? Promise.resolve(new Map())
  }

  /** One at a time (see SerialFlush). */
  flush(): Promise<void> {
    return this.flusher.flush()
  }

  private async flushOnce(): Promise<void> {
    const now = this.options.now?.() ?? Date.now()
    // The throttle map only needs the last minute.
    for (const [id, at] of this.lastTouch) if (now - at >= TOUCH_INTERVAL_MS) this.lastTouch.delete(id)
    if (this.pending.size === 0) return
    const batch = this.pending
    this.pending = new Map()
    try {
      await this.sink.write(dayIn(this.options.timeZone ?? 'UTC', new Date(now)), batch)
    } catch (error) {
      // Merge back, keeping the later time: a write that did land is harmless to repeat.
      for (const [id, at] of batch) this.pending.set(id, Math.max(at, this.pending.get(id) ?? 0))
      this.options.onError?.(error)
    }
  }

  stop(): Promise<void> {
    return this.flusher.stop()
  }
}

type Queryable = { query: (sql: string, params: unknown[]) => Promise<unknown> }

/** users.actived_at = the later of what it holds and the given times. */
export async function applyLastActive(db: Queryable, times: Map<number, number>): Promise<void> {
  if (times.size === 0) return
  const ids = [...times.keys()]
  await db.query(
    `update users u set actived_at = greatest(u.actived_at, to_timestamp(v.ms / 1000.0))
       from unnest($1::int[], $2::bigint[]) as v(id, ms) where u.id = v.id`,
    [ids, ids.map((id) => times.get(id)!)],
  )
}

export function postgresActivitySink(db: Queryable): ActivitySink {
  return { write: (_day, times) => applyLastActive(db, times) }
}

// ---- Redis ---------------------------------------------------------------------

/** KEYS: day hash, latest hash, set of live days. ARGV: day, then user / ms pairs. Keeps the later time. */
const TOUCH_LUA = `
for i = 2, #ARGV, 2 do
  local at = tonumber(ARGV[i + 1])
  if at > tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0') then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
  if at > tonumber(redis.call('HGET', KEYS[2], ARGV[i]) or '0') then redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
end
redis.call('SADD', KEYS[3], ARGV[1])
return 1`

/**
 * After an in-flight day is in PostgreSQL: a user's "latest" entry goes only
 * if it is not newer than what was synced (a newer touch stays for reads).
 */
const FINISH_ACTIVITY_SYNC_LUA = finishSyncLua(`  local latest = redis.call('HGET', KEYS[2], synced[i])
  if latest and tonumber(latest) <= tonumber(synced[i + 1]) then redis.call('HDEL', KEYS[2], synced[i]) end`)

export function activityKeys(prefix: string) {
  const keys = dayHashKeys(prefix, 'active')
  return { ...keys, latest: `${keys.base}latest` }
}

export function redisActivitySink({ redis, prefix, readTimeoutMs }: { redis: Redis; prefix: string; readTimeoutMs: number }): ActivitySink {
  const keys = activityKeys(prefix)
  return {
    async write(day, times) {
      const args = [...times].flatMap(([id, ms]) => [String(id), String(ms)])
      await redis.eval(TOUCH_LUA, 3, keys.day(day), keys.latest, keys.days, day, ...args)
    },
    async unsynced(userIds) {
      if (userIds.length === 0) return new Map()
      const values = await readBeside(redis, keys.latest, userIds, readTimeoutMs)
      const found = new Map<number, number>()
      userIds.forEach((id, i) => values?.[i] && found.set(id, values[i]!))
      return found
    },
  }
}

/** `sync-user-actived-at`: the day hashes to PostgreSQL (see syncDayHashes); repeating is harmless (max). */
export async function syncLastActiveToDatabase(
  redis: Redis,
  db: Queryable,
  prefix: string,
  progress: (done: number, total: number) => void = () => {},
): Promise<{ days: number; users: number }> {
  const keys = activityKeys(prefix)
  const synced = await syncDayHashes(
    redis,
    keys,
    { apply: (times) => applyLastActive(db, times), finishLua: FINISH_ACTIVITY_SYNC_LUA, beside: keys.latest },
    progress,
  )
  const users = new Set(synced.flatMap((times) => [...times.keys()]))
  return { days: synced.length, users: users.size }
}

// ---- The process's recorder ------------------------------------------------------

/** The last-active recorder of a Payload instance (the activity plugin installs it at init). */
const recorderSlot = payloadSlot<LastActiveRecorder>('inkwell.lastActive')
export const installLastActive = recorderSlot.install
export const lastActiveRecorderOf = recorderSlot.of

type UserTimes = { id: number; activedAt?: string | null; createdAt: string }

/**
 * When each user was last active, as shown on profiles and in the admin: the
 * latest of the database's activedAt, Redis's unsynced time and this
 * process's unflushed touch; when none is known, the registration time.
 */
export async function lastActiveTimes(payload: Payload, users: UserTimes[]): Promise<Map<number, string>> {
  const recorder = lastActiveRecorderOf(payload)
  const unsynced = recorder ? await recorder.unsynced(users.map((u) => u.id)) : new Map<number, number>()
  return new Map(
    users.map((user) => {
      const candidates = [user.activedAt ? Date.parse(user.activedAt) : 0, unsynced.get(user.id) ?? 0, recorder?.unflushed(user.id) ?? 0]
      const latest = Math.max(...candidates)
      return [user.id, latest > 0 ? new Date(latest).toISOString() : user.createdAt]
    }),
  )
}

export async function lastActiveTime(payload: Payload, user: UserTimes): Promise<string> {
  return (await lastActiveTimes(payload, [user])).get(user.id) ?? user.createdAt
}
