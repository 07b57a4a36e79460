import type { PayloadRequest } from 'payload'

import { sql } from '@payloadcms/db-postgres'

type DrizzleLike = { execute: (query: unknown) => Promise<unknown> }

/** The drizzle handle for the request's transaction, or the pool when there is none. */
export async function transactionDb(req: PayloadRequest): Promise<DrizzleLike> {
  const db = req.payload.db as unknown as { drizzle: DrizzleLike; sessions?: Record<string, { db: DrizzleLike }> }
  const id = req.transactionID ? await req.transactionID : undefined
  return (id !== undefined && db.sessions?.[String(id)]?.db) || db.drizzle
}

/**
 * Serialises a critical section across processes with a transaction-scoped
 * PostgreSQL advisory lock: it is released when the request's transaction
 * commits or rolls back, so the next writer sees the committed rows.
 */
export async function lockTransaction(req: PayloadRequest, name: string): Promise<void> {
  const db = await transactionDb(req)
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${name}))`)
}
