/**
 * Raw SQL: the one way code reaches PostgreSQL outside Payload's Local API.
 *
 * - `poolOf(payload)` is the pg pool behind Payload's postgres adapter, typed
 *   (pg's own types); `query(payload, text, params)` runs one statement on it
 *   and gives its rows. Parameters are always `$n` values, never spliced text.
 * - `transactionDb(req)` is the drizzle handle of the request's transaction
 *   (or the pool's when there is none), for statements that must commit or
 *   roll back with the write that caused them (`sql` tagged templates).
 * - `withLocalSettings` runs statements on one connection under `set local`.
 * - `updateWithoutHooks` writes columns of one document through the adapter,
 *   skipping hooks, validation and access (the one idiom for that).
 * - `readHiddenAuthFields` reads a user's hidden auth fields (hash, salt,
 *   tokens, lockUntil, loginAttempts, sessions…), which Payload never returns.
 * The adapter's untyped internals are reached here and nowhere else.
 *
 * Derived data is kept one way per kind:
 * - Counts a reader sees next to the thing counted (an article's reply count
 *   and last reply, a user's unread notifications, the search index row) are
 *   kept by Payload hooks inside the writing transaction, so the count commits
 *   or rolls back with the write, and the rule lives beside its collection.
 * - Statistics over all rows (the dashboard rollups) are kept by PL/pgSQL
 *   triggers (migration 20261124_180000_dashboard_rollups), because bulk and
 *   raw SQL writes (imports, seeds, the view-count sync, `updateWithoutHooks`)
 *   bypass Payload hooks, and a rollup that missed one write would be wrong
 *   for good.
 * - Counters fed by events that are not writes (views, last-active times) are
 *   counted in Redis or a table of their own and applied in SQL by their sync
 *   job (the activity plugin's view and last-active syncs), which the rollup triggers see.
 * New derived data follows the same rule, and says which kind it is where it is kept.
 */
import type { Payload, PayloadRequest, Where } from 'payload'
import type { Pool, QueryResultRow } from 'pg'

export type PgPool = Pool & { _clients?: { end?: () => Promise<void> }[] }
export type Row = QueryResultRow

type Drizzle = { execute: (query: unknown) => Promise<unknown> }
/** What of Payload's postgres adapter this module uses: Payload types `payload.db` as the generic adapter. */
type PostgresAdapter = {
  pool?: PgPool
  drizzle: Drizzle
  sessions?: Record<string, { db: Drizzle }>
  updateOne: Payload['db']['updateOne']
  findOne: Payload['db']['findOne']
}

const adapterOf = (payload: Payload) => payload.db as unknown as PostgresAdapter

/** The pg pool behind Payload's postgres adapter. */
export function poolOf(payload: Payload): PgPool {
  const pool = adapterOf(payload).pool
  if (!pool) throw new Error('raw SQL needs the PostgreSQL adapter, connected')
  return pool
}

/** The pool, or undefined before the adapter has connected (or after it is gone). */
export function poolIfConnected(payload: Payload): PgPool | undefined {
  return adapterOf(payload).pool
}

/** Runs one statement on the pool and gives its rows. */
export async function query<R extends Row = Row>(payload: Payload, text: string, params: unknown[] = []): Promise<R[]> {
  return (await poolOf(payload).query<R>(text, params)).rows
}

/** The drizzle handle for the request's transaction, or the pool's when there is none. */
export async function transactionDb(req: PayloadRequest): Promise<Drizzle> {
  const db = adapterOf(req.payload)
  const id = req.transactionID ? await req.transactionID : undefined
  return (id !== undefined && db.sessions?.[String(id)]?.db) || db.drizzle
}

/**
 * An idle pooled connection that dies (database restart, failover) emits
 * 'error' on the pool; without a listener that would crash the process.
 * Log it instead: the pool replaces the connection on the next query.
 * A connection that dies while checked out (a transaction between two
 * statements) emits 'error' on itself, where pg-pool listens only while it
 * is idle: each connection gets a listener of its own too, so the holder's
 * next query fails (503, src/lib/databaseOutage.ts) and the process lives.
 */
export function guardPool(payload: Payload): void {
  const pool = poolIfConnected(payload)
  if (!pool) return
  const lost = (error: Error) => payload.logger.warn(`PostgreSQL connection lost: ${error.message}`)
  pool.on('error', lost)
  const quiet = () => {}
  pool.on('connect', (client) => void client.on('error', quiet))
  for (const client of (pool as unknown as { _clients?: { on?: (event: 'error', listener: () => void) => void }[] })._clients ?? []) client.on?.('error', quiet)
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

type Collection = Parameters<Payload['db']['updateOne']>[0]['collection']

/**
 * Writes `data` (field names, as Payload names them) to one document through
 * the adapter: no hooks, no validation, no access check, nothing returned, and
 * `updatedAt` left as it is. Inside `req`'s transaction when there is one.
 */
export async function updateWithoutHooks(
  payload: Payload,
  { collection, id, data, req }: { collection: Collection; id: number | string; data: Record<string, unknown>; req?: PayloadRequest },
): Promise<void> {
  await adapterOf(payload).updateOne({ collection, id, data: { ...data, updatedAt: null }, req, returning: false })
}

/** The auth fields Payload keeps from every API answer (users collection). */
export type HiddenAuthFields = {
  id: number
  email: string
  hash?: string | null
  salt?: string | null
  _verified?: boolean | null
  _verificationToken?: string | null
  resetPasswordToken?: string | null
  resetPasswordExpiration?: string | null
  loginAttempts?: number | null
  lockUntil?: string | null
  sessions?: { id: string; createdAt?: string | Date | null; expiresAt?: string | Date | null }[] | null
  [field: string]: unknown
}

/**
 * A user's stored row with its hidden auth fields, read through the adapter
 * (Payload's find never returns them), inside `req`'s transaction when given.
 * `by` is the user's id, or `{ email }`.
 */
export async function readHiddenAuthFields(
  payload: Payload,
  by: number | string | { email: string },
  req?: Partial<PayloadRequest>,
): Promise<HiddenAuthFields | null> {
  const where: Where = typeof by === 'object' ? { email: { equals: by.email } } : { id: { equals: by } }
  return (await adapterOf(payload).findOne({ collection: 'users', where, req })) as HiddenAuthFields | null
}
