/**
 * Personal access tokens: the format, the hash, and how a request tells it was
 * authenticated by one.
 *
 * A token reads `iwt_<public id>_<secret>`. The public id (shown in lists, so a
 * user can tell tokens apart) finds the row; the secret is stored only as its
 * SHA-256. The secret is 32 random bytes, so a fast hash is the right one (as
 * for GitHub's tokens): there is nothing to guess that a slow hash would protect.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

import type { PayloadRequest } from 'payload'
import { validationTranslator } from '../../lib/i18n/request'

export const TOKEN_STRATEGY = 'access-token'
export const TOKEN_PREFIX = 'iwt_'
export const TOKEN_SCOPES = ['read', 'write'] as const
export type TokenScope = (typeof TOKEN_SCOPES)[number]

const TOKEN_SHAPE = /^iwt_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/

export type IssuedToken = { publicId: string; secret: string; secretHash: string; token: string }

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

export function issueToken(): IssuedToken {
  const publicId = randomBytes(9).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '0').slice(0, 12)
  const secret = randomBytes(32).toString('base64url')
  return { publicId, secret, secretHash: hashSecret(secret), token: `${TOKEN_PREFIX}${publicId}_${secret}` }
}

export function parseToken(value: string): { publicId: string; secret: string } | undefined {
  const match = TOKEN_SHAPE.exec(value.trim())
  return match ? { publicId: match[1]!, secret: match[2]! } : undefined
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex')
  const stored = Buffer.from(storedHash, 'hex')
  return given.length === stored.length && timingSafeEqual(given, stored)
}

/** The token a request presents: `Authorization: Bearer iwt_…`, or the `access_token` query parameter. */
export function presentedToken(headers: Headers, url?: string): string | undefined {
  const authorization = headers.get('authorization') ?? ''
  if (authorization.toLowerCase().startsWith('bearer ')) {
    const value = authorization.slice(7).trim()
    if (value.startsWith(TOKEN_PREFIX)) return value
  }
  if (!url) return undefined
  const fromQuery = new URL(url, 'http://localhost').searchParams.get('access_token')
  return fromQuery?.startsWith(TOKEN_PREFIX) ? fromQuery : undefined
}

export type TokenUser = { _strategy?: string; _accessToken?: { id: number; scope: TokenScope } }

/** The token a request was authenticated with, when it was (not a session or password). */
export function requestToken(req: Pick<PayloadRequest, 'user'> | undefined): TokenUser['_accessToken'] | undefined {
  const user = req?.user as TokenUser | null | undefined
  return user?._strategy === TOKEN_STRATEGY ? user._accessToken : undefined
}

export function isReadOnlyToken(req: Pick<PayloadRequest, 'user'> | undefined): boolean {
  return requestToken(req)?.scope === 'read'
}

/** The refusal of a write by a read-scope token, in the request's language. */
export const readOnlyTokenRefusal = (req: Parameters<typeof validationTranslator>[0]) => validationTranslator(req)('error.token.readOnly')

type Forget = (publicId: string) => void
const forgetters = new Set<Forget>()

/**
 * Negative caches of unknown token ids (src/server/credentialCheck.ts) listen
 * here: a token's creation makes its id known at once in this process (other
 * processes forget theirs within their cache's time to live).
 */
export function onTokenCreated(forget: Forget): () => void {
  forgetters.add(forget)
  return () => void forgetters.delete(forget)
}

export function tokenCreated(publicId: string): void {
  for (const forget of forgetters) forget(publicId)
}
