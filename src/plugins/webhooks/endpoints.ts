/**
 * The hook's actions, for holders of `webhooks.manage`:
 *   POST /api/webhooks/:id/ping           records and sends a `ping` event to this hook
 *   POST /api/webhooks/:id/rotate-secret  draws a new secret (answered once, as `secret`); the old one signs beside it for 24 h
 *   POST /api/webhooks/:id/redeliver      body { delivery: <id> } or { all: true } (every failed delivery of the hook)
 */
import { sql } from '@payloadcms/db-postgres'
import { commitTransaction, initTransaction, killTransaction, type Endpoint, type PayloadRequest } from 'payload'
import { translatorFor } from '../../lib/i18n/request'

import { enqueue } from '../../../jobs/queue'
import { hasPermission } from '../../access'
import { query, transactionDb } from '../../lib/pool'
import { webhookOptions } from './deliver'
import { recordEvent } from './record'
import { newWebhookSecret } from './signing'

/** The rows and their jobs commit together (in pg-boss mode the job is inserted through this transaction). */
export async function inTransaction<T>(req: PayloadRequest, work: () => Promise<T>): Promise<T> {
  const started = await initTransaction(req)
  try {
    const result = await work()
    if (started) await commitTransaction(req)
    return result
  } catch (error) {
    if (started) await killTransaction(req)
    throw error
  }
}

const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { 'cache-control': 'no-store' } })

/** POST /api/webhooks/:id/<action>: 403 without webhooks.manage, 404 for an unknown hook, otherwise `act` with the hook's id. */
function hookEndpoint(action: string, act: (req: PayloadRequest, hook: number) => Promise<Response>): Endpoint {
  return {
    path: `/:id/${action}`,
    method: 'post',
    handler: async (req) => {
      if (!(await hasPermission(req, 'webhooks.manage'))) return json({ errors: [{ message: req.t('error:notAllowedToPerformAction') }] }, 403)
      const id = Number(req.routeParams?.id)
      const [found] = Number.isInteger(id) ? await query<{ id: number }>(req.payload, 'select id from webhooks where id = $1', [id]) : []
      return found ? act(req, found.id) : json({ errors: [{ message: req.t('general:notFound') }] }, 404)
    },
  }
}

export const pingEndpoint = hookEndpoint('ping', async (req, hook) => {
  const [delivery] = await inTransaction(req, () => recordEvent(req, 'ping', { webhook: hook, message: 'Hello from Inkwell' }, hook))
  return json({ delivery })
})

export const rotateSecretEndpoint = hookEndpoint('rotate-secret', async (req, hook) => {
  const secret = newWebhookSecret()
  const overlap = webhookOptions(req.payload).rotationOverlapMs
  const [row] = await query<{ previous_secret_until: Date }>(
    req.payload,
    `update webhooks set previous_secret = secret, previous_secret_until = now() + ($2::bigint * interval '1 millisecond'), secret = $3, updated_at = now()
        where id = $1 returning previous_secret_until`,
    [hook, overlap, secret],
  )
  return json({ secret, previousSecretUntil: row!.previous_secret_until })
})

export const redeliverEndpoint = hookEndpoint('redeliver', async (req, hook) => {
  const body = ((await req.json?.().catch(() => ({}))) ?? {}) as {
    delivery?: unknown
    all?: unknown
  }
  const one = Number(body.delivery)
  if (!body.all && !Number.isInteger(one))
    return json(
      {
        errors: [
          {
            message: translatorFor(req)('error.webhooks.redeliver'),
            field: 'delivery',
          },
        ],
      },
      400,
    )
  const rows = await inTransaction(req, async () => {
    const db = await transactionDb(req)
    const found = (await db.execute(
      body.all
        ? sql`update webhook_deliveries set status = 'pending', next_attempt_at = now(), updated_at = now() where webhook_id = ${hook} and status = 'failed' returning id`
        : sql`update webhook_deliveries set status = 'pending', next_attempt_at = now(), updated_at = now() where webhook_id = ${hook} and id = ${one} and status in ('failed', 'delivered') returning id`,
    )) as { rows: { id: number }[] }
    for (const { id } of found.rows) await enqueue(req, 'deliver-webhook', { deliveryId: id }, { key: `webhook-redeliver-${id}-${Date.now()}` })
    return found.rows
  })
  return json({ redelivering: rows.map((r) => r.id) })
})
