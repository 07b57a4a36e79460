/**
 * Recording an event: inside the transaction of the change that caused it, one
 * delivery row per enabled hook that listens to the event (the outbox and the
 * log at once), and one `deliver-webhook` job per row, enqueued through the same
 * transaction. The row and the job exist exactly when the change commits; the
 * request never waits for a receiver.
 */
import { randomUUID } from 'node:crypto'

import { sql } from '@payloadcms/db-postgres'
import type { PayloadRequest } from 'payload'

import { enqueue } from '../../../jobs/queue'
import { transactionDb } from '../../lib/pool'
import type { WebhookEvent } from './events'

export type WebhookBody = { type: WebhookEvent; timestamp: string; data: Record<string, unknown> }

type Rows<R> = { rows: R[] }

/** Inserts the delivery rows (in the request's transaction) and enqueues their jobs; returns the new delivery ids. */
export async function recordEvent(req: PayloadRequest, type: WebhookEvent, data: Record<string, unknown>, onlyWebhook?: number): Promise<number[]> {
  const db = await transactionDb(req)
  const filter = onlyWebhook === undefined ? sql`enabled and events @> ${JSON.stringify([type])}::jsonb` : sql`id = ${onlyWebhook}`
  const hooks = (await db.execute(sql`select id from webhooks where ${filter}`)) as Rows<{ id: number }>
  const ids: number[] = []
  for (const { id: webhookId } of hooks.rows) {
    const body: WebhookBody = { type, timestamp: new Date().toISOString(), data }
    const inserted = (await db.execute(sql`
      insert into webhook_deliveries (webhook_id, event, message_id, body, status, attempt_count, next_attempt_at, attempts)
      values (${webhookId}, ${type}, ${`msg_${randomUUID()}`}, ${JSON.stringify(body)}::jsonb, 'pending', 0, now(), '[]'::jsonb)
      returning id`)) as Rows<{ id: number }>
    const deliveryId = inserted.rows[0]!.id
    ids.push(deliveryId)
    await enqueue(req, 'deliver-webhook', { deliveryId }, { key: `webhook-delivery-${deliveryId}` })
  }
  return ids
}
