/** The webhook retry schedule (src/plugins/webhooks/options.ts): exponential, capped, jittered, and spanning at least 24 hours. */
import { describe, expect, it } from 'vitest'

import { DEFAULTS, retryDelayMs } from '../../src/plugins/webhooks/options'

const HOUR = 3_600_000

/** The times after the first failure at which attempts happen, while inside the retry window. */
function schedule(random: () => number): number[] {
  const at: number[] = []
  let elapsed = 0
  for (let failed = 1; ; failed++) {
    const next = elapsed + retryDelayMs(failed, DEFAULTS, random)
    if (next > DEFAULTS.retryWindowMs) return at
    at.push((elapsed = next))
  }
}

describe('webhook retry schedule', () => {
  it('doubles from 30 s up to the 1 h cap', () => {
    const plain = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => retryDelayMs(n, DEFAULTS, () => 0.5))
    expect(plain).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000])
  })

  it('jitters each delay within ±20 %', () => {
    expect(retryDelayMs(3, DEFAULTS, () => 0)).toBe(96_000)
    expect(retryDelayMs(3, DEFAULTS, () => 1)).toBe(144_000)
  })

  it('keeps retrying for at least 24 hours whatever the jitter', () => {
    for (const random of [() => 0, () => 0.5, () => 0.999]) {
      const attempts = schedule(random)
      expect(attempts.at(-1)!).toBeGreaterThanOrEqual(24 * HOUR)
      expect(attempts.length).toBeGreaterThan(25)
    }
  })
})
