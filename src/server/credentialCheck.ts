/**
 * The reader site's cheap look at a request's credentials, before its page is
 * served (issue 28 §2). A credential that does not verify signs no one in, so
 * the page it gets is the anonymous one: it is removed from the request and
 * the page is answered from the render cache like any anonymous view, instead
 * of forcing a full render (which a flood of junk cookies turned into ~160
 * req/s). A credential that verifies is left alone: the page renders for its
 * holder and is answered `private, no-store` (privateCaching.ts).
 *
 *  - the session cookie (`payload-token`) or `Authorization: JWT|Bearer <jwt>`:
 *    Payload's own JWT (HS256 with the key Payload derives from its secret).
 *    Verified here as Payload verifies it: the signature, then the expiry.
 *    A token whose signature holds is a credential, whatever Payload decides
 *    next (a revoked session then renders as nobody, privately: a stolen
 *    token's holder pays for a render, a forger cannot).
 *  - `Authorization: Bearer iwt_…` (or `?access_token=`, moved there at the
 *    door): a personal access token. Its shape is checked, then its public id
 *    is looked up once (one indexed read), the secret compared with the stored
 *    hash and the expiry checked; ids that exist nowhere are remembered in a
 *    bounded negative cache (a creation forgets its id at once, see
 *    tokenCreated in src/plugins/accessTokens/tokens.ts), so a flood of one junk token costs one read.
 *  - any other Authorization scheme authenticates no one on this site.
 *  - `inkwell-switch` is only ever read beside a valid session: with a junk
 *    session it goes too.
 *
 * Never does this grant anything: a credential kept here is still verified by
 * Payload's strategies when the page renders. Its only power is to decide
 * that a request is anonymous, and it says so only when Payload would too.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

import { LRUCache } from 'lru-cache'

import { hashSecret, onTokenCreated, parseToken, TOKEN_PREFIX } from '../plugins/accessTokens/tokens'

const SESSION_COOKIE = /(?:^|;\s*)payload-token=([^;]*)/
const CREDENTIAL_COOKIES = /^(?:payload-token|inkwell-switch)$/

export type StoredToken = { secretHash: string | null; expiresAt: Date | string | null; userId: number | null }
/** Finds an access token by its public id (undefined: there is none). */
export type TokenLookup = (publicId: string) => Promise<StoredToken | undefined>

/** The key Payload signs its JWTs with: the first 32 hex digits of SHA-256(PAYLOAD_SECRET) (payload.secret). */
export type CredentialCheckOptions = { jwtKey: string; findToken?: TokenLookup; unknownTokens?: number; unknownTtlMs?: number; now?: () => number }

export type Verdict = 'anonymous' | 'verified' | 'junk'

/** An HS256 JWT whose signature is Payload's and whose expiry has not passed. */
export function jwtVerifies(token: string, key: string, nowMs = Date.now()): boolean {
  if (token.length > 8192) return false
  const parts = token.split('.')
  if (parts.length !== 3) return false
  const [head, body, signature] = parts as [string, string, string]
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown }
    if (header.alg !== 'HS256') return false
    const expected = createHmac('sha256', key).update(`${head}.${body}`).digest()
    const given = Buffer.from(signature, 'base64url')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { exp?: unknown; nbf?: unknown }
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= nowMs) return false
    if (typeof claims.nbf === 'number' && claims.nbf * 1000 > nowMs) return false
    return true
  } catch {
    return false
  }
}

export class CredentialCheck {
  private unknown: LRUCache<string, true>
  private now: () => number
  stats = { junk: 0, verified: 0, lookups: 0 }

  constructor(private options: CredentialCheckOptions) {
    this.now = options.now ?? Date.now
    this.unknown = new LRUCache({ max: options.unknownTokens ?? 10_000, ttl: options.unknownTtlMs ?? 10 * 60_000 })
    this.close = onTokenCreated((id) => void this.unknown.delete(id))
  }

  close: () => void

  /** Whether the request's credentials sign someone in: 'anonymous' (none), 'verified', or 'junk' (present, but they do not). */
  async verdict(req: Pick<IncomingMessage, 'headers'>): Promise<Verdict> {
    const cookie = req.headers.cookie
    const authorization = req.headers.authorization
    const session = cookie ? SESSION_COOKIE.exec(cookie) : null
    const hasSwitch = cookie?.includes('inkwell-switch=') ?? false
    if (!session && !authorization && !hasSwitch) return 'anonymous'
    if (session && session[1] && this.jwt(decodeURIComponentSafe(session[1]))) return 'verified'
    if (authorization && (await this.authorization(authorization))) return 'verified'
    return 'junk'
  }

  /** Drops a request's credentials when they sign no one in; true when the request is anonymous now (or was). */
  async anonymize(req: IncomingMessage): Promise<boolean> {
    const verdict = await this.verdict(req)
    if (verdict === 'verified') {
      this.stats.verified++
      return false
    }
    if (verdict === 'junk') {
      this.stats.junk++
      stripCredentials(req)
    }
    return true
  }

  private jwt(token: string): boolean {
    return jwtVerifies(token, this.options.jwtKey, this.now())
  }

  private async authorization(value: string): Promise<boolean> {
    const space = value.indexOf(' ')
    const scheme = space < 0 ? value.toLowerCase() : value.slice(0, space).toLowerCase()
    const credential = space < 0 ? '' : value.slice(space + 1).trim()
    if (scheme === 'jwt') return this.jwt(credential)
    if (scheme !== 'bearer') return false
    if (!credential.startsWith(TOKEN_PREFIX)) return this.jwt(credential)
    return this.accessToken(credential)
  }

  private async accessToken(value: string): Promise<boolean> {
    const parsed = parseToken(value)
    if (!parsed || !this.options.findToken) return false
    if (this.unknown.has(parsed.publicId)) return false
    this.stats.lookups++
    const stored = await this.options.findToken(parsed.publicId)
    if (!stored) {
      this.unknown.set(parsed.publicId, true)
      return false
    }
    if (!stored.secretHash || !stored.userId) return false
    const given = Buffer.from(hashSecret(parsed.secret), 'hex')
    const kept = Buffer.from(stored.secretHash, 'hex')
    if (given.length !== kept.length || !timingSafeEqual(given, kept)) return false
    if (stored.expiresAt && new Date(stored.expiresAt).getTime() <= this.now()) return false
    return true
  }
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/** Removes the session and switch cookies (other cookies stay) and the Authorization header. */
export function stripCredentials(req: Pick<IncomingMessage, 'headers'>): void {
  delete req.headers.authorization
  const cookie = req.headers.cookie
  if (!cookie) return
  const kept = cookie
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part && !CREDENTIAL_COOKIES.test(part.slice(0, part.indexOf('=') < 0 ? part.length : part.indexOf('='))))
  if (kept.length) req.headers.cookie = kept.join('; ')
  else delete req.headers.cookie
}
