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
import { randomUUID } from 'node:crypto'

import type { Redis } from 'ioredis'
import type { Payload } from 'payload'

import { dayIn } from './day'
import { BEGIN_SYNC_LUA, boundedRead, keysOf, readInflight } from '../../lib/redis'

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
  private flushing: Promise<void> = Promise.resolve()
  private timer: NodeJS.Timeout

  constructor(
    private sink: ActivitySink,
    private options: { intervalMs?: number; timeZone?: string; onError?: (error: unknown) => void; now?: () => number } = {},
  ) {
    this.timer = setInterval(() => void this.flush(), options.intervalMs ?? 10_000)
    this.timer.unref()
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

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushOnce())
    return this.flushing
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

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
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
 * KEYS: in-flight hash, latest hash, set of in-flight keys.
 */
const FINISH_ACTIVITY_SYNC_LUA = `
local synced = redis.call('HGETALL', KEYS[1])
for i = 1, #synced, 2 do
  local latest = redis.call('HGET', KEYS[2], synced[i])
  if latest and tonumber(latest) <= tonumber(synced[i + 1]) then redis.call('HDEL', KEYS[2], synced[i]) end
end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[3], KEYS[1])
return #synced / 2`

export function activityKeys(prefix: string) {
  const keys = keysOf(prefix, 'active')
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
      const values = await boundedRead(redis, (r) => r.hmget(keys.latest, ...userIds.map(String)), readTimeoutMs, undefined)
      const found = new Map<number, number>()
      userIds.forEach((id, i) => values?.[i] && found.set(id, Number(values[i])))
      return found
    },
  }
}

/** `sync-user-actived-at`: the same three steps as the view sync (see syncViewsToDatabase); repeating is harmless (max). */
export async function syncLastActiveToDatabase(
  redis: Redis,
  db: Queryable,
  prefix: string,
  progress: (done: number, total: number) => void = () => {},
): Promise<{ days: number; users: number }> {
  const keys = activityKeys(prefix)
  await redis.eval(BEGIN_SYNC_LUA, 2, keys.days, keys.inflights, keys.base, randomUUID())
  const inflight = (await redis.smembers(keys.inflights)).sort()
  const users = new Set<number>()
  for (const [i, key] of inflight.entries()) {
    const times = await readInflight(redis, key)
    await applyLastActive(db, times)
    await redis.eval(FINISH_ACTIVITY_SYNC_LUA, 3, key, keys.latest, keys.inflights)
    for (const id of times.keys()) users.add(id)
    progress(i + 1, inflight.length)
  }
  return { days: inflight.length, users: users.size }
}

// ---- The process's recorder ------------------------------------------------------

const RECORDER = Symbol.for('inkwell.lastActive')
type WithRecorder = { [RECORDER]?: LastActiveRecorder }

export function installLastActive(payload: Payload, recorder: LastActiveRecorder): void {
  ;(payload as unknown as WithRecorder)[RECORDER] = recorder
}

export function lastActiveRecorderOf(payload: Payload): LastActiveRecorder | undefined {
  return (payload as unknown as WithRecorder)[RECORDER]
}

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
