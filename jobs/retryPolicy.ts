/**
 * How long a job that talks to another system (mail, webhooks, imports'
 * media) keeps trying: exponential backoff with jitter, capped, for at least
 * a window (JOB_RETRY_WINDOW_SECONDS, default 24 h). An SMTP server down for
 * an afternoon then loses nothing: its mails go out when it comes back.
 *
 * pg-boss computes each retry's delay itself (retryBackoff): the n-th retry
 * waits `delay × 2^(n-1) × (1 + random())`, jitter included, at most
 * `maxDelay`. The retry count is chosen so that even the shortest draw of
 * that schedule spans the window; sync mode (jobs/queue.ts) sleeps the same
 * delays in place.
 */
export type RetryPolicy = {
  /** The shortest time a job keeps being retried before it is dead-lettered, in seconds. */
  windowSeconds: number
  /** The first retry's delay (before jitter), in seconds. */
  delaySeconds: number
  /** No retry waits longer than this, in seconds. */
  maxDelaySeconds: number
}

/** The shortest wait before retry number `retry` (1-based), as pg-boss draws it without jitter. */
export function shortestDelaySeconds(policy: RetryPolicy, retry: number): number {
  const exp = Math.min(16, retry)
  return Math.min(policy.maxDelaySeconds, Math.max(policy.delaySeconds, 1) * 2 ** (exp - 1))
}

/** How many retries make the shortest schedule last at least the window. */
export function retriesFor(policy: RetryPolicy): number {
  let total = 0
  let retries = 0
  while (total < policy.windowSeconds) total += shortestDelaySeconds(policy, ++retries)
  return retries
}

/** One retry's delay with jitter, in milliseconds: pg-boss's formula, for sync mode's in-place retries. */
export function jitteredDelayMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const exp = Math.min(16, retry)
  const base = Math.max(policy.delaySeconds, 1) * 2 ** (exp - 1)
  return Math.min(policy.maxDelaySeconds, base * (1 + random())) * 1000
}
