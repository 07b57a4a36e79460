/**
 * The Redis connection of the activity counters (views, last-active times).
 * Made for a Redis that may be down or slow: commands never wait in an
 * offline queue (a stopped Redis answers "not writable" at once) and every
 * command gives up after `timeoutMs` (a paused or overloaded one), so the
 * callers — background flushes, and reads on a page's path — stay bounded
 * and keep their data in memory until Redis answers again.
 */
import { Redis } from 'ioredis'

export type RedisOptions = {
  url: string
  timeoutMs: number
  log: (message: string) => void
  /** What the caller does meanwhile, for the outage's log lines. */
  meanwhile?: { down: string; back: string }
}

const ACTIVITY = { down: 'activity is kept in memory until it returns', back: 'writing the activity kept in memory' }

export function connectRedis({ url, timeoutMs, log, meanwhile = ACTIVITY }: RedisOptions): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 1_000),
    // Reconnect forever, at most every 2 s: Redis coming back is the normal end of an outage.
    retryStrategy: (times) => Math.min(times * 100, 2_000),
  })
  let warned = false
  redis.on('error', (error: Error) => {
    // One line per outage, not one per reconnect attempt.
    if (!warned) log(`Redis unavailable (${error.message}); ${meanwhile.down}`)
    warned = true
  })
  redis.on('ready', () => {
    if (warned) log(`Redis is back; ${meanwhile.back}`)
    warned = false
  })
  return redis
}

/** Resolves once the connection is ready (for one-off work such as a sync), or rejects after `ms`. */
export async function whenReady(redis: Redis, ms: number): Promise<Redis> {
  if (redis.status === 'ready') return redis
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms / 1000} s`)), ms)
    timer.unref()
    redis.once('ready', () => {
      clearTimeout(timer)
      resolve()
    })
  })
  return redis
}

/** `promise`, or `fallback` once `ms` have passed. */
export function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms)
    timer.unref()
  })
  return Promise.race([promise.catch(() => fallback), late]).finally(() => clearTimeout(timer))
}

/** How long reads on a request's path skip a connection after one of them timed out. */
export const READ_PAUSE_AFTER_TIMEOUT_MS = 1_000

/** Per connection: until when reads answer their fallback without asking. */
const skipReadsUntil = new WeakMap<Redis, number>()

/**
 * A read on a request's path: its answer, or `fallback` after `ms`, or at
 * once when the connection is not ready. After a read times out (Redis
 * paused or overloaded), the reads of the next second on that connection
 * answer their fallback without asking, so a page that reads Redis several
 * times (view counts, last-active times) waits one bound, not one per read,
 * and the traffic of an outage does not pile commands up behind the pause.
 * One second, so the counts are fresh again soon after Redis answers.
 */
export async function boundedRead<T>(redis: Redis, read: (redis: Redis) => Promise<T>, ms: number, fallback: T): Promise<T> {
  if (redis.status !== 'ready' || Date.now() < (skipReadsUntil.get(redis) ?? 0)) return fallback
  const timedOut = Symbol('timed out')
  const answer = await within<T | typeof timedOut>(read(redis), ms, timedOut)
  if (answer !== timedOut) return answer
  skipReadsUntil.set(redis, Date.now() + READ_PAUSE_AFTER_TIMEOUT_MS)
  return fallback
}
