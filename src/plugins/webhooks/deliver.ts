/**
 * One attempt at one delivery (the `deliver-webhook` job), in both queue modes:
 *
 *  1. Claim the row: pending and due (or `sending` with a lapsed lease, when a
 *     worker died mid-attempt). The claim is one UPDATE, so two workers or a
 *     job and the retry schedule never send the same delivery at once, and a
 *     delivered row is never sent again: at most once per event and hook once
 *     the receiver answered 2xx.
 *  2. POST through the guarded outbound fetch (public addresses only unless
 *     OUTBOUND_ALLOW_PRIVATE=true, no redirects, 10 s, 64 KB read).
 *  3. Record the attempt. 2xx: delivered. Timeout, connection error, 5xx, 429:
 *     pending again, due after the backoff (options.ts), until the retry window
 *     ends, then failed. Any other answer, or a refused address: failed.
 *
 * The next attempt is then sent to the queue with a start time (pg-boss) or a
 * timer (sync mode); the per-minute `retry-webhooks` schedule is the backstop
 * that finds due rows whatever happened to those (a restart, a lost timer).
 */
import type { Payload } from 'payload'

import { queueOf } from '../../../jobs/queue'
import { OutboundError, outboundFetch } from '../../lib/outboundFetch'
import { supportedLanguage, translator } from '../../lib/i18n'
import { query } from '../../lib/pool'
import { pluginOptionsOf } from '../pluginOptions'
import { resolveOptions, retryDelayMs, WEBHOOKS_KEY, type ResolvedWebhooksOptions, type WebhooksOptions } from './options'
import { signatureHeaders } from './signing'

export type DeliverWebhookData = { deliveryId: number }

export const DELIVERY_TIMEOUT_MS = 10_000
export const DELIVERY_MAX_BYTES = 64 * 1024
const LEASE_SECONDS = 60
const EXCERPT = 1024

export const webhookOptions = (payload: Payload): ResolvedWebhooksOptions =>
  resolveOptions(pluginOptionsOf<WebhooksOptions>(payload, WEBHOOKS_KEY) ?? { outbound: { allowPrivate: false } })

type Claimed = {
  id: number
  webhook_id: number
  message_id: string
  body: unknown
  attempt_count: number
  created_at: Date
  url: string
  enabled: boolean
  secret: string
  previous_secret: string | null
  previous_secret_until: Date | null
}

type Outcome = { status?: number; error?: string; response?: string; retry: boolean; ok: boolean }

export async function deliverWebhook(payload: Payload, { deliveryId }: DeliverWebhookData): Promise<void> {
  const options = webhookOptions(payload)
  const [row] = await query<Claimed>(
    payload,
    `update webhook_deliveries d set status = 'sending', lease_until = now() + interval '${LEASE_SECONDS} seconds'
       from webhooks w
      where d.id = $1 and w.id = d.webhook_id
        and ((d.status = 'pending' and d.next_attempt_at <= now()) or (d.status = 'sending' and d.lease_until < now()))
      returning d.id, d.webhook_id, d.message_id, d.body, d.attempt_count, d.created_at, w.url, w.enabled, w.secret, w.previous_secret, w.previous_secret_until`,
    [deliveryId],
  )
  if (!row) return // delivered, failed, not due yet, or another worker holds it
  if (!row.enabled && (row.body as { type?: string })?.type !== 'ping') {
    await finish(payload, row, { ok: false, retry: false, error: 'the hook is disabled' }, 0, options)
    return
  }
  const secrets = [row.secret]
  if (row.previous_secret && row.previous_secret_until && row.previous_secret_until.getTime() > Date.now()) secrets.push(row.previous_secret)
  const body = JSON.stringify(row.body)
  const started = Date.now()
  let outcome: Outcome
  try {
    const answer = await outboundFetch(row.url, options.outbound, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Inkwell-Webhooks/1', ...signatureHeaders(secrets, row.message_id, new Date(), body) },
      body,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxBytes: DELIVERY_MAX_BYTES,
      maxRedirects: 0,
    })
    const ok = answer.status >= 200 && answer.status < 300
    outcome = { ok, status: answer.status, response: answer.body.subarray(0, EXCERPT).toString('utf8'), retry: !ok && (answer.status >= 500 || answer.status === 429) }
  } catch (error) {
    const code = error instanceof OutboundError ? error.code : 'OUTBOUND_FAILED'
    // A refused address or a redirect will not change by retrying; a timeout, a dropped connection or an oversized answer may.
    outcome = { ok: false, error: `${code}: ${(error as Error).message}`, retry: code === 'OUTBOUND_TIMEOUT' || code === 'OUTBOUND_FAILED' }
  }
  await finish(payload, row, outcome, Date.now() - started, options)
}

async function finish(payload: Payload, row: Claimed, outcome: Outcome, durationMs: number, options: ResolvedWebhooksOptions): Promise<void> {
  const attempt = { at: new Date().toISOString(), status: outcome.status ?? null, durationMs, response: outcome.response ?? null, error: outcome.error ?? null }
  const attempts = row.attempt_count + 1
  const delay = retryDelayMs(attempts, options)
  const inWindow = Date.now() + delay - new Date(row.created_at).getTime() <= options.retryWindowMs
  const status = outcome.ok ? 'delivered' : outcome.retry && inWindow ? 'pending' : 'failed'
  const next = status === 'pending' ? new Date(Date.now() + delay) : null
  await query(
    payload,
    `update webhook_deliveries set status = $2::text::enum_webhook_deliveries_status, attempt_count = $3, next_attempt_at = $4, lease_until = null, last_status = $5, last_error = $6,
            delivered_at = case when $2::text = 'delivered' then now() else delivered_at end, attempts = attempts || $7::jsonb, updated_at = now()
      where id = $1`,
    [row.id, status, attempts, next, outcome.status ?? null, outcome.error ?? null, JSON.stringify([attempt])],
  )
  if (outcome.ok) {
    await query(payload, `update webhooks set failing_since = null where id = $1 and failing_since is not null`, [row.webhook_id])
  } else {
    await query(payload, `update webhooks set failing_since = now() where id = $1 and failing_since is null`, [row.webhook_id])
    await disableIfFailingTooLong(payload, row.webhook_id, options)
  }
  if (next) await scheduleAttempt(payload, row.id, attempts, next)
}

/** The next attempt: a pg-boss job that starts at `at`, or an in-process timer in sync mode. The minute schedule covers both. */
async function scheduleAttempt(payload: Payload, deliveryId: number, attempt: number, at: Date): Promise<void> {
  const queue = queueOf(payload)
  if (queue.mode === 'pgboss') {
    await queue.boss!.send('deliver-webhook', { deliveryId }, { startAfter: new Date(at.getTime() + 100), singletonKey: `webhook-delivery-${deliveryId}-${attempt}` })
    return
  }
  const timer = setTimeout(() => void deliverWebhook(payload, { deliveryId }).catch((error) => payload.logger.error({ err: error }, 'webhook retry failed')), at.getTime() - Date.now())
  timer.unref()
}

/** A hook whose attempts have all failed for `disableAfterMs` (3 days) is disabled and its owner told by mail. */
async function disableIfFailingTooLong(payload: Payload, webhookId: number, options: ResolvedWebhooksOptions): Promise<void> {
  const [disabled] = await query<{ url: string; email: string | null; language: string | null }>(
    payload,
    `update webhooks w set enabled = false, disabled_reason = 'Failing since ' || to_char(w.failing_since, 'YYYY-MM-DD HH24:MI') || ' UTC', updated_at = now()
       where w.id = $1 and w.enabled and w.failing_since < now() - ($2::int * interval '1 millisecond')
     returning w.url, (select email from users where id = w.owner_id) as email, (select language::text from users where id = w.owner_id) as language`,
    [webhookId, options.disableAfterMs],
  )
  if (!disabled) return
  payload.logger.warn(`webhook ${webhookId} (${disabled.url}) disabled: failing for too long`)
  if (disabled.email) {
    // In the owner's language (their profile's, else the site's default).
    const settings = (await payload.findGlobal({ slug: 'site-settings', depth: 0, overrideAccess: true })) as { defaultLanguage?: string }
    const t = translator(supportedLanguage(disabled.language) ?? supportedLanguage(settings?.defaultLanguage) ?? 'en')
    await payload
      .sendEmail({
        to: disabled.email,
        subject: t('mail.webhookDisabled.subject'),
        text: t('mail.webhookDisabled.text', { url: disabled.url, hours: Math.round(options.disableAfterMs / 3_600_000) }),
      })
      .catch((error: unknown) => payload.logger.error({ err: error }, 'webhook disabled mail failed'))
  }
}

/** Every due delivery (and every lapsed lease) attempted now (sent to the workers in pg-boss mode): the `retry-webhooks` schedule and command. */
export async function retryDueDeliveries(payload: Payload): Promise<number> {
  const due = await query<{ id: number }>(
    payload,
    `select id from webhook_deliveries where (status = 'pending' and next_attempt_at <= now()) or (status = 'sending' and lease_until < now()) order by id limit 500`,
  )
  const queue = queueOf(payload)
  if (queue.mode === 'pgboss') {
    // Handed to the delivery workers (sixteen per process), so a hanging receiver holds up no sweep.
    const minute = Math.floor(Date.now() / 60_000)
    for (const { id } of due) await queue.boss!.send('deliver-webhook', { deliveryId: id }, { singletonKey: `webhook-sweep-${id}-${minute}` })
    return due.length
  }
  for (let i = 0; i < due.length; i += 8) await Promise.all(due.slice(i, i + 8).map(({ id }) => deliverWebhook(payload, { deliveryId: id })))
  return due.length
}
