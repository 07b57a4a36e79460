import { describe, expect, it } from 'vitest'

import { BatchedViewCounter, shouldCountView, type ViewBatch } from '../../src/plugins/activity/views'

describe('BatchedViewCounter', () => {
  it('writes views in batches, one per day, and only when flushed', async () => {
    const writes: ViewBatch[] = []
    const counter = new BatchedViewCounter(async (batch) => void writes.push(batch), { intervalMs: 60_000, dayOf: () => '2026-11-24' })
    counter.hit(1)
    counter.hit(1)
    counter.hit(2)
    expect(writes).toHaveLength(0)
    expect(counter.pending(1)).toBe(2)
    await counter.flush()
    expect(writes.map((w) => [w.day, w.counts])).toEqual([['2026-11-24', new Map([[1, 2], [2, 1]])]])
    expect(counter.pending(1)).toBe(0)
    expect(counter.total(1)).toBe(2)
    await counter.stop()
  })

  it('retries a failed batch unchanged, with its id, and keeps new views apart', async () => {
    let fail = true
    const attempts: ViewBatch[] = []
    const errors: unknown[] = []
    const counter = new BatchedViewCounter(
      async (batch) => {
        attempts.push(batch)
        if (fail) throw new Error('database down')
      },
      { intervalMs: 60_000, onError: (e) => errors.push(e) },
    )
    for (let i = 0; i < 5; i++) counter.hit(7)
    await counter.flush()
    expect(errors).toHaveLength(1)
    counter.hit(7)
    expect(counter.pending(7)).toBe(6)
    fail = false
    await counter.stop()
    // The retry is the same batch (same id: a sink that did apply it ignores it); the new view is a batch of its own.
    expect(attempts).toHaveLength(3)
    expect(attempts[1]!.id).toBe(attempts[0]!.id)
    expect(attempts[1]!.counts.get(7)).toBe(5)
    expect(attempts[2]!.id).not.toBe(attempts[0]!.id)
    expect(attempts[2]!.counts.get(7)).toBe(1)
    expect(counter.pending(7)).toBe(0)
  })

  it('splits views by the day they happened on', async () => {
    const writes: ViewBatch[] = []
    let day = '2026-11-23'
    const counter = new BatchedViewCounter(async (batch) => void writes.push(batch), { intervalMs: 60_000, dayOf: () => day })
    counter.hit(1)
    day = '2026-11-24'
    counter.hit(1)
    await counter.stop()
    expect(writes.map((w) => [w.day, w.counts.get(1)])).toEqual([['2026-11-23', 1], ['2026-11-24', 1]])
  })

  it('flushes early when many views are pending', async () => {
    let flushed = 0
    const counter = new BatchedViewCounter(async (batch) => void (flushed += [...batch.counts.values()].reduce((a, b) => a + b, 0)), {
      intervalMs: 60_000,
      maxPending: 10,
    })
    for (let i = 0; i < 10; i++) counter.hit(1)
    await counter.flush()
    expect(flushed).toBe(10)
    await counter.stop()
  })
})

describe('shouldCountView', () => {
  const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
  const page = (init: RequestInit & { headers?: Record<string, string> } = {}) =>
    new Request('http://localhost/articles/1/a', { ...init, headers: { 'user-agent': chrome, ...init.headers } })

  it('counts a person\'s GET (a web Request, as the page sees it, or Node headers, as the cache does)', () => {
    expect(shouldCountView(page())).toBe(true)
    expect(shouldCountView({ method: 'GET', headers: { 'user-agent': chrome } })).toBe(true)
  })

  it('does not count HEAD, prefetches or crawlers', () => {
    expect(shouldCountView(page({ method: 'HEAD' }))).toBe(false)
    expect(shouldCountView(page({ headers: { 'sec-purpose': 'prefetch;prerender' } }))).toBe(false)
    expect(shouldCountView(page({ headers: { purpose: 'prefetch' } }))).toBe(false)
    expect(shouldCountView({ method: 'GET', headers: { 'user-agent': chrome, 'x-moz': 'prefetch' } })).toBe(false)
    for (const bot of ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'curl/8.5.0', 'python-requests/2.31', 'GPTBot/1.0']) {
      expect(shouldCountView(page({ headers: { 'user-agent': bot } }))).toBe(false)
    }
  })
})

describe('counted', () => {
  it('pluralises: "1 view", not "1 views"', async () => {
    const { counted } = await import('../../src/lib/counted')
    expect(counted(1, 'view', 'views')).toBe('1 view')
    expect(counted(0, 'view', 'views')).toBe('0 views')
    expect(counted(1234, 'reply', 'replies')).toBe('1,234 replies')
  })
})
