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

type PooledClient = { query: (text: string, values?: unknown[]) => Promise<unknown>; release: () => void }

/**
 * Runs `run` on one pooled connection inside a transaction that starts with
 * `begin` (e.g. `set local jit = off`): `set local` settings last exactly as
 * long as that transaction, so they never leak to the pool's next user.
 */
export async function withLocalSettings<C extends PooledClient, T>(
  pool: { connect: () => Promise<C> },
  begin: string,
  run: (client: C) => Promise<T>,
): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query(begin)
    const result = await run(client)
    await client.query('commit')
    return result
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}
