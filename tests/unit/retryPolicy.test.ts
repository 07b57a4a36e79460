import { describe, expect, it } from 'vitest'

import { jitteredDelayMs, retriesFor, shortestDelaySeconds } from '../../jobs/retryPolicy'
import { retryOptions } from '../../jobs/worker'
import { buildEnv } from '../../src/lib/env'

const env = (vars: Record<string, string>) => buildEnv({ PAYLOAD_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/inkwell-unit', ...vars } as unknown as NodeJS.ProcessEnv)

describe('retry policy of jobs that talk to other systems (issue 32 §5)', () => {
  it('defaults to at least 24 hours of retries with backoff, at most 10 minutes apart', () => {
    const { jobRetry } = env({})
    expect(jobRetry).toEqual({ windowSeconds: 86_400, delaySeconds: 5, maxDelaySeconds: 600 })
    const retries = retriesFor(jobRetry)
    let shortest = 0
    for (let r = 1; r <= retries; r++) shortest += shortestDelaySeconds(jobRetry, r)
    expect(shortest).toBeGreaterThanOrEqual(86_400)
    expect(shortest - shortestDelaySeconds(jobRetry, retries)).toBeLessThan(86_400)
    expect(retryOptions({ external: true, handler: async () => {} }, jobRetry)).toEqual({ retryLimit: retries, retryDelay: 5, retryDelayMax: 600 })
    expect(retryOptions({ tries: 3, handler: async () => {} }, jobRetry)).toEqual({ retryLimit: 2, retryDelay: 1, retryDelayMax: 300 })
  })

  it('draws each delay between its nominal value and twice that (jitter), capped', () => {
    const policy = { windowSeconds: 3600, delaySeconds: 5, maxDelaySeconds: 600 }
    expect(jitteredDelayMs(policy, 1, () => 0)).toBe(5_000)
    expect(jitteredDelayMs(policy, 1, () => 0.999)).toBeCloseTo(9_995)
    expect(jitteredDelayMs(policy, 3, () => 0.5)).toBe(30_000)
    expect(jitteredDelayMs(policy, 12, () => 0.5)).toBe(600_000)
  })

  it('is configurable and validated', () => {
    expect(env({ JOB_RETRY_WINDOW_SECONDS: '60', JOB_RETRY_DELAY_SECONDS: '1', JOB_RETRY_MAX_DELAY_SECONDS: '2' }).jobRetry).toEqual({
      windowSeconds: 60,
      delaySeconds: 1,
      maxDelaySeconds: 2,
    })
    expect(() => env({ JOB_RETRY_WINDOW_SECONDS: '0' })).toThrow(/JOB_RETRY_WINDOW_SECONDS/)
    expect(() => env({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/)
  })
})
