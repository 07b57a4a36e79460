import { describe, expect, it } from 'vitest'

import { BatchedViewCounter, shouldCountView } from '../../src/lib/views'

describe('BatchedViewCounter', () => {
  it('writes views in batches, and only when flushed', async () => {
    const writes: Map<number, number>[] = []
    const counter = new BatchedViewCounter(async (batch) => void writes.push(new Map(batch)), { intervalMs: 60_000 })
    counter.hit(1)
    counter.hit(1)
    counter.hit(2)
    expect(writes).toHaveLength(0)
    expect(counter.pending(1)).toBe(2)
    await counter.flush()
    expect(writes).toEqual([new Map([[1, 2], [2, 1]])])
    expect(counter.pending(1)).toBe(0)
    expect(counter.total(1)).toBe(2)
    await counter.stop()
  })

  it('keeps the views of a failed write for the next flush', async () => {
    let fail = true
    const written = new Map<number, number>()
    const errors: unknown[] = []
    const counter = new BatchedViewCounter(
      async (batch) => {
        if (fail) throw new Error('database down')
        for (const [id, n] of batch) written.set(id, (written.get(id) ?? 0) + n)
      },
      { intervalMs: 60_000, onError: (e) => errors.push(e) },
    )
    for (let i = 0; i < 5; i++) counter.hit(7)
    await counter.flush()
    expect(errors).toHaveLength(1)
    counter.hit(7)
    fail = false
    await counter.stop()
    expect(written.get(7)).toBe(6)
  })

  it('flushes early when many views are pending', async () => {
    let flushed = 0
    const counter = new BatchedViewCounter(async (batch) => void (flushed += [...batch.values()].reduce((a, b) => a + b, 0)), {
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
    const { counted } = await import('../../frontend/src/lib/api')
    expect(counted(1, 'view', 'views')).toBe('1 view')
    expect(counted(0, 'view', 'views')).toBe('0 views')
    expect(counted(1234, 'reply', 'replies')).toBe('1,234 replies')
  })
})
