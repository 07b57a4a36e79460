/** The pg pool behind Payload's postgres adapter. */
import type { Payload } from 'payload'

type PgPool = {
  query: (sql: string, params?: unknown[]) => Promise<unknown>
  end: () => Promise<void>
  ended?: boolean
  on: (event: 'error', listener: (error: Error) => void) => void
  _clients?: { end?: () => Promise<void> }[]
}

export function poolOf(payload: Payload): PgPool | undefined {
  return (payload.db as unknown as { pool?: PgPool }).pool
}

/**
 * An idle pooled connection that dies (database restart, failover) emits
 * 'error' on the pool; without a listener that would crash the process.
 * Log it instead: the pool replaces the connection on the next query.
 */
export function guardPool(payload: Payload): void {
  poolOf(payload)?.on('error', (error) => payload.logger.warn(`PostgreSQL connection lost: ${error.message}`))
}
