import { describe, expect, it } from 'vitest'

import { BatchedViewCounter } from '../../src/lib/views'

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
