/**
 * A sign-in in flight, kept on the server: the one-time `state`, the PKCE
 * verifier and the OpenID nonce never leave it. The browser holds only a
 * random value in an HttpOnly cookie; the row keeps that value's hash, so a
 * state is accepted only from the browser that started the flow (RFC 9700
 * §4.7), once (the row is deleted by the first callback, right or wrong), for
 * ten minutes, and only at the callback of the provider it was made for.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

import type { Payload } from 'payload'

import { poolOf } from '../../lib/pool'
import type { OAuthProviderId } from './settings'

export const ATTEMPT_TTL_MS = 10 * 60 * 1000
/**
 * At most this many sign-ins in flight are kept, whoever started them: each
 * start stores a row, so beyond the per-IP limit (RATE_LIMITS.oauthStart) the
 * oldest are dropped (those sign-ins fail at the callback as expired ones do)
 * and the table never grows past it.
 */
export const MAX_STORED_ATTEMPTS = 10_000
/** Scoped to the sign-in routes; `__Host-` on https (Secure, no Domain, Path=/ is required by that prefix, so it is not used there). */
export const BROWSER_COOKIE = 'inkwell-oauth'

export type Attempt = {
  state: string
  provider: OAuthProviderId
  codeVerifier?: string
  nonce?: string
  next: string
  /** Set when a signed-in user links a provider from the profile. */
  linkUserId?: number
}

const pool = poolOf

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url')
const digest = (value: string) => createHash('sha256').update(value).digest('base64url')

export async function saveAttempt(payload: Payload, attempt: Attempt, browserValue: string, maxStored = MAX_STORED_ATTEMPTS): Promise<void> {
  // Expired rows of anyone are swept by the next start, so the table stays small without a job.
  await pool(payload).query(`DELETE FROM oauth_sign_in_attempts WHERE expires_at < now()`)
  await pool(payload).query(
    `INSERT INTO oauth_sign_in_attempts (state, provider, browser_hash, code_verifier, nonce, next_path, link_user_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      attempt.state,
      attempt.provider,
      digest(browserValue),
      attempt.codeVerifier ?? null,
      attempt.nonce ?? null,
      attempt.next,
      attempt.linkUserId ?? null,
      new Date(Date.now() + ATTEMPT_TTL_MS),
    ],
  )
  await pool(payload).query(
    `DELETE FROM oauth_sign_in_attempts WHERE state IN (SELECT state FROM oauth_sign_in_attempts ORDER BY expires_at DESC OFFSET $1)`,
    [maxStored],
  )
}

export type AttemptCheck = { ok: true; attempt: Attempt } | { ok: false; reason: 'missing' | 'unknown' | 'expired' | 'other-browser' | 'other-provider' }

/** Takes the attempt out of the store (one use only) and checks it belongs to this browser and this provider. */
export async function takeAttempt(
  payload: Payload,
  state: string | undefined,
  browserValue: string | undefined,
  provider: OAuthProviderId,
): Promise<AttemptCheck> {
  if (!state || state.length > 256) return { ok: false, reason: 'missing' }
  const { rows } = await pool(payload).query(`DELETE FROM oauth_sign_in_attempts WHERE state = $1 RETURNING *`, [state])
  const row = rows[0]
  if (!row) return { ok: false, reason: 'unknown' }
  if (new Date(row.expires_at as string).getTime() < Date.now()) return { ok: false, reason: 'expired' }
  const expected = Buffer.from(String(row.browser_hash))
  const actual = Buffer.from(browserValue ? digest(browserValue) : '')
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { ok: false, reason: 'other-browser' }
  if (row.provider !== provider) return { ok: false, reason: 'other-provider' }
  return {
    ok: true,
    attempt: {
      state,
      provider,
      codeVerifier: (row.code_verifier as string | null) ?? undefined,
      nonce: (row.nonce as string | null) ?? undefined,
      next: String(row.next_path),
      linkUserId: (row.link_user_id as number | null) ?? undefined,
    },
  }
}
