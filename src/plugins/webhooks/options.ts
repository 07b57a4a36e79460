import type { OutboundPolicy } from '../../lib/outboundFetch'

export const WEBHOOKS_KEY = 'webhooks'

/**
 * Retry schedule (docs/FEATURES.md, "Webhooks"): after the n-th failed attempt
 * the next one is due after min(retryBaseMs · 2^(n-1), retryCapMs), times a
 * random factor in [0.8, 1.2] (jitter). With the defaults (30 s base, 1 h cap)
 * that is 30 s, 1, 2, 4, 8, 16, 32 min, then hourly: attempt 8 comes ~1 h 3 min
 * after the first failure and ~25 more hourly attempts follow until
 * retryWindowMs (26 h) after the event, so retries span at least 24 h.
 * Tests shorten every figure.
 */
export type WebhooksOptions = {
  outbound: OutboundPolicy
  retryBaseMs?: number
  retryCapMs?: number
  retryWindowMs?: number
  /** A hook failing continuously this long is disabled and its owner mailed (3 days). */
  disableAfterMs?: number
  /** How long a rotated-out secret keeps signing beside the new one (24 h). */
  rotationOverlapMs?: number
}

export const DEFAULTS = {
  retryBaseMs: 30_000,
  retryCapMs: 3_600_000,
  retryWindowMs: 26 * 3_600_000,
  disableAfterMs: 3 * 24 * 3_600_000,
  rotationOverlapMs: 24 * 3_600_000,
}

export type ResolvedWebhooksOptions = Required<WebhooksOptions>

export const resolveOptions = (options: WebhooksOptions): ResolvedWebhooksOptions => ({ ...DEFAULTS, ...options })

/** The delay before attempt n+1 after n failed attempts, with ±20 % jitter. */
export function retryDelayMs(failedAttempts: number, o: Pick<ResolvedWebhooksOptions, 'retryBaseMs' | 'retryCapMs'>, random = Math.random): number {
  const plain = Math.min(o.retryBaseMs * 2 ** Math.max(0, failedAttempts - 1), o.retryCapMs)
  return Math.round(plain * (0.8 + 0.4 * random()))
}
