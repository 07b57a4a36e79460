import type { CollectionAfterChangeHook, CollectionAfterDeleteHook, PayloadRequest } from 'payload'

import { sql } from '@payloadcms/db-postgres'

import { transactionDb } from '../../../src/lib/pool'
import { relationId } from '../../../src/lib/relationId'

/**
 * The header badge reads users.unread_notifications; it is recounted, never incremented, so it can't drift.
 * Derived data kept by a Payload hook (the rule: src/lib/pool.ts): a count a reader sees, recounted inside
 * the notification's writing transaction. Rows changed by hand in SQL: `recount-unread-notifications`.
 */
export async function recountUnread(req: PayloadRequest, userId: number): Promise<void> {
  const db = await transactionDb(req)
  await db.execute(sql`
    update users set unread_notifications =
      (select count(*) from notifications where recipient_id = ${userId} and read_at is null)
    where id = ${userId}`)
}

export const countUnreadAfterChange: CollectionAfterChangeHook = async ({ doc, previousDoc, operation, req }) => {
  const recipient = relationId(doc.recipient)
  const readChanged = operation === 'create' || Boolean(doc.readAt) !== Boolean(previousDoc?.readAt)
  if (recipient && readChanged) await recountUnread(req, recipient)
  return doc
}

export const countUnreadAfterDelete: CollectionAfterDeleteHook = async ({ doc, req }) => {
  const recipient = relationId(doc.recipient)
  if (recipient) await recountUnread(req, recipient)
  return doc
}
