/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com), made by the
 * `standardwebhooks` library: `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` ("v1,<base64 HMAC-SHA256>", several space-separated while
 * a rotated-out secret still signs), so any Standard Webhooks library verifies.
 */
import { randomBytes } from 'node:crypto'

import { Webhook } from 'standardwebhooks'

/** A new secret: `whsec_` and 32 random bytes in base64, the form Standard Webhooks libraries take. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

export function signatureHeaders(secrets: string[], messageId: string, at: Date, body: string): Record<string, string> {
  const signature = secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' ')
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  }
}
