/**
 * Reads on a page's path against a Redis of the test's own, paused and
 * stopped: each answers its fallback within its bound, and after one times
 * out the next reads on that connection do not ask at all for a moment, so a
 * page with several reads waits one bound, not one per read.
 */
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { boundedRead, connectRedis, READ_PAUSE_AFTER_TIMEOUT_MS, whenReady } from '../../src/lib/redis'
import { startOwnRedis, type OwnRedis } from '../helpers/redisServer'
import { waitUntil } from '../helpers/waitUntil'

const TIMEOUT_MS = 150
let own: OwnRedis
let redis: Redis

/** A read that records whether it was asked. */
function counted() {
  const asked = { n: 0 }
  return { asked, read: (r: Redis) => (asked.n++, r.get('inkwell:test:value')) }
}

beforeAll(async () => {
  own = await startOwnRedis()
  redis = connectRedis({ url: own.url, timeoutMs: TIMEOUT_MS, log: () => {} })
  await whenReady(redis, 5_000)
  await own.client.set('inkwell:test:value', 'stored')
})

afterAll(async () => {
  redis?.disconnect()
  await own?.close()
})

describe('boundedRead', () => {
  it('answers what Redis holds while Redis answers', async () => {
    const { asked, read } = counted()
    expect(await boundedRead(redis, read, TIMEOUT_MS, 'fallback')).toBe('stored')
    expect(await boundedRead(redis, read, TIMEOUT_MS, 'fallback')).toBe('stored')
    expect(asked.n).toBe(2)
  })

  it('after a read times out on a paused Redis, answers the fallback without asking, then asks again', async () => {
    // A pause that ends by itself: on Redis 7.0 CLIENT UNPAUSE waits out a pause of ALL.
    // Long enough for the steps below (~1.5 s) on a busy machine.
    await own.pause(6_000)
    const first = counted()
    expect(await boundedRead(redis, first.read, TIMEOUT_MS, 'fallback')).toBe('fallback')
    expect(first.asked.n).toBe(1)

    // The reads that follow (the rest of the page, the next pages) are not sent.
    const next = counted()
    const answers = await Promise.all(Array.from({ length: 5 }, () => boundedRead(redis, next.read, TIMEOUT_MS, 'fallback')))
    expect(answers).toEqual(Array(5).fill('fallback'))
    expect(next.asked.n).toBe(0)

    // Once the moment has passed, a read asks Redis again (and, still paused, times out again).
    await new Promise((r) => setTimeout(r, READ_PAUSE_AFTER_TIMEOUT_MS + 50))
    const later = counted()
    expect(await boundedRead(redis, later.read, TIMEOUT_MS, 'fallback')).toBe('fallback')
    expect(later.asked.n).toBe(1)

    // Redis resumes: reads answer its value again within a moment.
    await waitUntil(async () => (await boundedRead(redis, (r) => r.get('inkwell:test:value'), TIMEOUT_MS, 'fallback')) === 'stored', {
      what: 'reads to answer Redis’s value after the pause',
      timeoutMs: 10_000,
    })
  })

  it('answers the fallback without asking while Redis is stopped', async () => {
    await own.stop()
    await waitUntil(async () => redis.status !== 'ready', { what: 'the connection to notice the stop', timeoutMs: 10_000 })
    const { asked, read } = counted()
    expect(await boundedRead(redis, read, TIMEOUT_MS, 'fallback')).toBe('fallback')
    expect(asked.n).toBe(0)
    await own.start()
    await whenReady(redis, 10_000)
    expect(await boundedRead(redis, read, TIMEOUT_MS, 'fallback')).toBe('stored')
  })
})
