/**
 * OpenID Connect: the issuer's addresses from its discovery document
 * (openid-client, which checks that the document's `issuer` is the one asked
 * for), and the ID token verified with jose, the JOSE library openid-client
 * itself is built on: signature against the issuer's published keys (JWKS),
 * `iss`, `aud`, expiry, an issue time not in the future (beyond a small
 * clock skew), then the nonce of this attempt, that every audience is this
 * client (OpenID Connect Core 3.1.3.7) and `azp`.
 */
import { createRemoteJWKSet, jwtVerify } from 'jose'
import { allowInsecureRequests, discovery, type ServerMetadata } from 'openid-client'

import type { OAuthProviderSettings } from './settings'
import { ProviderAnswerError, type ProviderProfile } from './providers'

/** The ID token failed a check: a forged, misdirected or replayed token. */
export class IdTokenError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'IdTokenError'
  }
}

/** How far ahead of this server's clock an issuer's `iat` may be: clocks drift, tokens from the future do not exist. */
export const MAX_CLOCK_SKEW_SECONDS = 5 * 60

type Discovered = { metadata: ServerMetadata; jwks: ReturnType<typeof createRemoteJWKSet>; at: number }
const DISCOVERY_TTL_MS = 60 * 60 * 1000
const discovered = new Map<string, Promise<Discovered>>()

/** Discovery documents change rarely: each issuer is asked once an hour at most, and again after a failure. */
export function discover(settings: OAuthProviderSettings, issuer: string, timeoutMs: number): Promise<Discovered> {
  const key = `${issuer}\n${settings.clientId}`
  const cached = discovered.get(key)
  if (cached) return cached.then((d) => (Date.now() - d.at < DISCOVERY_TTL_MS ? d : refresh()))
  return refresh()

  function refresh(): Promise<Discovered> {
    const loading = (async () => {
      const url = new URL(issuer)
      const config = await discovery(url, settings.clientId, settings.clientSecret, undefined, {
        timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
        // Plain http is accepted by the configuration only for loopback servers (settings.ts).
        execute: url.protocol === 'http:' ? [allowInsecureRequests] : [],
      })
      const metadata = config.serverMetadata()
      if (!metadata.authorization_endpoint || !metadata.token_endpoint || !metadata.jwks_uri) {
        throw new ProviderAnswerError('The issuer’s discovery document lacks its authorization, token or key address.')
      }
      const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: timeoutMs })
      return { metadata, jwks, at: Date.now() }
    })()
    discovered.set(key, loading)
    loading.catch(() => discovered.delete(key))
    return loading
  }
}

/** Asymmetric algorithms only: an HS* token would be signed with the client secret, which is not a proof of the issuer. */
function acceptedAlgorithms(metadata: ServerMetadata): string[] {
  const offered = metadata.id_token_signing_alg_values_supported ?? ['RS256']
  return offered.filter((alg) => alg !== 'none' && !alg.startsWith('HS'))
}

export async function verifiedIdTokenProfile(
  idToken: unknown,
  { metadata, jwks }: Discovered,
  clientId: string,
  nonce: string | undefined,
): Promise<ProviderProfile & { claims: Record<string, unknown> }> {
  if (typeof idToken !== 'string' || !idToken) throw new IdTokenError('The token response carries no ID token.')
  let claims: Record<string, unknown>
  try {
    ;({ payload: claims } = await jwtVerify(idToken, jwks, {
      issuer: metadata.issuer,
      audience: clientId,
      algorithms: acceptedAlgorithms(metadata),
      requiredClaims: ['sub', 'iat', 'exp'],
      clockTolerance: 30,
    }))
  } catch (error) {
    // The issuer's keys not arriving in time is a timeout, not a forged token.
    if ((error as { code?: string }).code === 'ERR_JWKS_TIMEOUT') throw error
    throw new IdTokenError(`The ID token was refused: ${(error as Error).message}`)
  }
  if (typeof claims.iat !== 'number' || claims.iat > Date.now() / 1000 + MAX_CLOCK_SKEW_SECONDS) {
    throw new IdTokenError('The ID token claims to be issued in the future.')
  }
  if (!nonce || claims.nonce !== nonce) throw new IdTokenError('The ID token’s nonce is not the one of this sign-in.')
  // Every audience must be trusted, and the only one trusted is this client: another audience could replay it elsewhere.
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
  if (audiences.some((aud) => aud !== clientId)) throw new IdTokenError('The ID token is also meant for another audience.')
  if (claims.azp !== undefined && claims.azp !== clientId) throw new IdTokenError('The ID token was issued to another client (azp).')
  return { ...profileFromClaims(claims), claims }
}

export function profileFromClaims(claims: Record<string, unknown>): ProviderProfile {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined)
  const subject = text(claims.sub)
  if (!subject || subject.length > 255) throw new ProviderAnswerError('The provider answered without a usable subject.')
  const email = text(claims.email)
  return {
    subject,
    email,
    emailVerified: Boolean(email) && (claims.email_verified === true || claims.email_verified === 'true'),
    name: text(claims.name) ?? ([text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ') || text(claims.preferred_username)),
    avatarUrl: text(claims.picture),
  }
}
