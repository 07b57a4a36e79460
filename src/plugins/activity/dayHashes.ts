/**
 * The Redis side shared by view counts and last-active times: each keeps a
 * hash per day (APP_TIMEZONE) of id → number, a set of the days that have
 * one, and a hash "beside" them that pages read (unsynced view totals, latest
 * touch times). The daily sync moves the day hashes to PostgreSQL.
 */
import { randomUUID } from 'node:crypto'

import type { Redis } from 'ioredis'

import { boundedRead } from '../../lib/redis'

/** Keys under the configured prefix, in one hash slot per namespace so the scripts also run on a cluster. */
export function dayHashKeys(prefix: string, namespace: string) {
  const base = `${prefix}{${namespace}}:`
  return {
    base,
    day: (day: string) => `${base}day:${day}`,
    days: `${base}days`,
    inflights: `${base}inflights`,
  }
}

export type DayHashKeys = ReturnType<typeof dayHashKeys>

/**
 * Takes every day hash of a namespace out of the live set, atomically: each is
 * renamed to an "in flight" key named after this sync, so views (or
 * activity) arriving from now on start a fresh hash and are left for the next
 * sync. Returns nothing; the in-flight keys are listed in the `inflights` set.
 */
const BEGIN_SYNC_LUA = `
local days = redis.call('SMEMBERS', KEYS[1])
for _, day in ipairs(days) do
  local live = ARGV[1] .. 'day:' .. day
  if redis.call('EXISTS', live) == 1 then
    local inflight = ARGV[1] .. 'inflight:' .. day .. ':' .. ARGV[2]
    redis.call('RENAME', live, inflight)
    redis.call('SADD', KEYS[2], inflight)
  end
  redis.call('SREM', KEYS[1], day)
end
return #days`

/**
 * The script that ends one in-flight hash's sync, once it is in PostgreSQL:
 * `perEntry` updates the hash beside (KEYS[2]) for each synced field
 * (`synced[i]`, its value `synced[i + 1]`), then the in-flight hash (KEYS[1])
 * is deleted and leaves the set of in-flight keys (KEYS[3]), atomically.
 */
export function finishSyncLua(perEntry: string): string {
  return `
local synced = redis.call('HGETALL', KEYS[1])
for i = 1, #synced, 2 do
${perEntry}
end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[3], KEYS[1])
return #synced / 2`
}

/** The day an in-flight key holds (…inflight:<day>:<sync id>). */
export function dayOfInflight(key: string): string {
  const match = /inflight:(\d{4}-\d{2}-\d{2}):/.exec(key)
  if (!match) throw new Error(`not an in-flight key: ${key}`)
  return match[1]!
}

/** An in-flight hash as numbers: field → value. */
async function readInflight(redis: Redis, key: string): Promise<Map<number, number>> {
  const raw = await redis.hgetall(key)
  return new Map(Object.entries(raw).map(([k, v]) => [Number(k), Number(v)]))
}

export type DayHashSync = {
  /** Writes one in-flight day hash to PostgreSQL, at most once per `key` (or harmlessly again). */
  apply(entries: Map<number, number>, inflight: { key: string; day: string }): Promise<void>
  /** Run once it is written: finishSyncLua's script, with `beside` as its KEYS[2]. */
  finishLua: string
  beside: string
}

/**
 * Redis → PostgreSQL, then exactly what was synced is cleared. Three steps,
 * each safe to repeat after a crash:
 *  1. the day hashes are renamed to in-flight keys (atomic; new entries start a fresh hash);
 *  2. each in-flight hash is applied (`sync.apply`, which a rerun makes harmless);
 *  3. its entries leave the hash beside and the key is deleted (atomic).
 * A rerun finds either nothing, or in-flight keys left by a crash: step 2
 * skips or repeats harmlessly what was applied, step 3 finishes.
 * Returns the synced hashes, oldest day first.
 */
export async function syncDayHashes(
  redis: Redis,
  keys: DayHashKeys,
  sync: DayHashSync,
  progress: (done: number, total: number) => void = () => {},
): Promise<Map<number, number>[]> {
  await redis.eval(BEGIN_SYNC_LUA, 2, keys.days, keys.inflights, keys.base, randomUUID())
  const inflight = (await redis.smembers(keys.inflights)).sort()
  const synced: Map<number, number>[] = []
  for (const [i, key] of inflight.entries()) {
    const entries = await readInflight(redis, key)
    await sync.apply(entries, { key, day: dayOfInflight(key) })
    await redis.eval(sync.finishLua, 3, key, sync.beside, keys.inflights)
    synced.push(entries)
    progress(i + 1, inflight.length)
  }
  return synced
}

/** The hash beside's values for these ids, as numbers (0 when absent); undefined when Redis did not answer within `timeoutMs` (see boundedRead). */
export async function readBeside(redis: Redis, key: string, ids: number[], timeoutMs: number): Promise<number[] | undefined> {
  const values = await boundedRead(redis, (r) => r.hmget(key, ...ids.map(String)), timeoutMs, undefined)
  return values?.map((value) => Number(value ?? 0))
}
