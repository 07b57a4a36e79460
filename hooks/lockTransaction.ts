import type { PayloadRequest } from 'payload'

import { sql } from '@payloadcms/db-postgres'

import { transactionDb } from '../src/lib/pool'

/**
 * Serialises a critical section across processes with a transaction-scoped
 * PostgreSQL advisory lock: it is released when the request's transaction
 * commits or rolls back, so the next writer sees the committed rows.
 */
export async function lockTransaction(req: PayloadRequest, name: string): Promise<void> {
  const db = await transactionDb(req)
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${name}))`)
}
