/**
 * Signed, expiring preview links: `/preview/<id>?token=<expires>.<signature>`.
 * The signature is an HMAC-SHA256 of `<id>.<expires>` under a key derived
 * from Payload's secret (so it needs no setting of its own and dies with a
 * secret rotation). Whoever holds the link sees the article's latest version
 * until `expires`; nobody can make one for another article or a later time.
 * `verifyPreviewToken` is the one check, with a constant-time comparison.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

/** How long a preview link works: long enough to share for a review, short enough to die on its own. */
export const PREVIEW_TTL_SECONDS = 24 * 60 * 60

const keyOf = (secret: string) => createHmac('sha256', secret).update('inkwell:article-preview:v1').digest()
const signatureOf = (secret: string, id: number, expires: number) =>
  createHmac('sha256', keyOf(secret)).update(`${id}.${expires}`).digest('base64url')

export function signPreviewToken(secret: string, id: number, { now = Date.now(), ttlSeconds = PREVIEW_TTL_SECONDS } = {}): string {
  const expires = Math.floor(now / 1000) + ttlSeconds
  return `${expires}.${signatureOf(secret, id, expires)}`
}

/** The preview path of article `id` with a fresh token. */
export function previewPath(secret: string, id: number, options?: { now?: number; ttlSeconds?: number }): string {
  return `/preview/${id}?token=${signPreviewToken(secret, id, options)}`
}

/** The bucket of live-preview links: one link per article per hour. */
const LIVE_PREVIEW_BUCKET_MS = 60 * 60 * 1000

/**
 * The preview path for the admin's live preview (its iframe's `src`). Payload
 * asks for the URL again after every save and autosave, and a URL that
 * changes reloads the iframe and makes the admin wait for a new "ready": the
 * token is signed as of the start of the hour, so the link stays the same for
 * an hour (and is valid 23 to 24 hours from now).
 */
export function livePreviewPath(secret: string, id: number, now = Date.now()): string {
  return previewPath(secret, id, { now: Math.floor(now / LIVE_PREVIEW_BUCKET_MS) * LIVE_PREVIEW_BUCKET_MS })
}

const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/

/** True when `token` was signed for article `id` and has not expired. Any other input, of any length, is false. */
export function verifyPreviewToken(secret: string, id: number, token: unknown, now = Date.now()): boolean {
  if (typeof token !== 'string' || token.length > 64 || !Number.isSafeInteger(id) || id <= 0) return false
  const match = TOKEN.exec(token)
  if (!match) return false
  const expires = Number(match[1])
  if (expires * 1000 <= now) return false
  const given = Buffer.from(match[2]!, 'base64url')
  const expected = Buffer.from(signatureOf(secret, id, expires), 'base64url')
  return given.length === expected.length && timingSafeEqual(given, expected)
}
