/**
 * Image captchas for public forms. The answer never leaves the server: it is
 * stored in `captcha_challenges` under a random token that the browser holds
 * in an HttpOnly cookie, is checked case-insensitively, expires after five
 * minutes, and is deleted by the first attempt, right or wrong.
 */
import { randomBytes } from 'node:crypto'

import type { Payload } from 'payload'
import svgCaptcha from 'svg-captcha'

export const CAPTCHA_COOKIE = 'inkwell-captcha'
export const CAPTCHA_TTL_MS = 5 * 60 * 1000

export type CaptchaCheck = 'ok' | 'wrong' | 'expired' | 'missing'

type Queryable = { query: (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> }

function pool(payload: Payload): Queryable {
  return (payload.db as unknown as { pool: Queryable }).pool
}

/** Makes a new challenge; the caller sets `token` as the browser's captcha cookie and shows `svg`. */
export async function createCaptcha(payload: Payload): Promise<{ token: string; svg: string }> {
  // Without 0/o/1/l/i, which even honest readers confuse.
  const { text, data } = svgCaptcha.create({ size: 5, noise: 2, ignoreChars: '0oO1lIi', background: '#f4f1ea' })
  const token = randomBytes(24).toString('base64url')
  const db = pool(payload)
  await db.query('delete from captcha_challenges where expires_at < now()')
  await db.query('insert into captcha_challenges (token, answer, expires_at) values ($1, $2, $3)', [
    token,
    text.toLowerCase(),
    new Date(Date.now() + CAPTCHA_TTL_MS),
  ])
  return { token, svg: data }
}

/** Consumes the challenge (single use: one DELETE … RETURNING, so two racing attempts can't both pass). */
export async function checkCaptcha(payload: Payload, token: string | undefined, answer: unknown): Promise<CaptchaCheck> {
  if (!token) return 'missing'
  const { rows } = await pool(payload).query(
    'delete from captcha_challenges where token = $1 returning answer, expires_at',
    [token],
  )
  const row = rows[0]
  if (!row) return 'expired'
  if (new Date(row.expires_at as string).getTime() < Date.now()) return 'expired'
  const given = typeof answer === 'string' ? answer.trim().toLowerCase() : ''
  return given !== '' && given === row.answer ? 'ok' : 'wrong'
}
