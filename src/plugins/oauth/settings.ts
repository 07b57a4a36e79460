/**
 * The sign-in providers' settings, parsed from the `OAUTH_*` and `<PROVIDER>_*`
 * variables. src/lib/env.ts stays the one reader of the environment: it hands
 * the variables to parseOAuthSettings and turns an OAuthSettingsError (whose
 * message names the variable) into its ConfigError.
 */
import { withoutTrailingSlashes } from '../../lib/trimEnd'

/** The sign-in providers (providers.ts): the seven of the original product and a generic OpenID Connect one. */
export const OAUTH_PROVIDERS = ['github', 'google', 'gitlab', 'bitbucket', 'facebook', 'twitter', 'linkedin', 'oidc'] as const
export type OAuthProviderId = (typeof OAUTH_PROVIDERS)[number]

/** One provider that is allowed and has its client credentials: what the flow needs to run it. */
export type OAuthProviderSettings = {
  id: OAuthProviderId
  clientId: string
  clientSecret: string
  /** Absolute: BASE_URL + `<PROVIDER>_REDIRECT` when that is a path. */
  redirectUri: string
  /** Overrides of the provider's well-known addresses (a self-hosted GitLab, a test server); unset means the provider's own. */
  authorizationUrl?: string
  tokenUrl?: string
  apiUrl?: string
  issuer?: string
}

export type OAuthSettings = {
  allowedProviders: OAuthProviderId[]
  providers: OAuthProviderSettings[]
  timeoutMs: number
}

/** A wrong sign-in variable; the message starts with the variable's name. */
export class OAuthSettingsError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OAuthSettingsError'
  }
}

type Source = Record<string, string | undefined>

const isLoopbackHost = (host: string) => host === 'localhost' || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host)

/** A provider address must be https; plain http only on this machine's loopback (a development or test server). */
function providerUrl(source: Source, variable: string): string | undefined {
  const value = source[variable]?.trim()
  if (!value) return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new OAuthSettingsError(`${variable}: must be an absolute URL`)
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new OAuthSettingsError(`${variable}: must be an https:// URL (http:// only for localhost or 127.0.0.1)`)
  }
  return withoutTrailingSlashes(url.href)
}

/** OAUTH_ALLOWED_PROVIDERS, a comma-separated list of ids among OAUTH_PROVIDERS. */
function allowedProvidersOf(list: string): OAuthProviderId[] {
  const allowed = list
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean)
  const unknownProvider = allowed.find((p) => !(OAUTH_PROVIDERS as readonly string[]).includes(p))
  if (unknownProvider) {
    throw new OAuthSettingsError(`OAUTH_ALLOWED_PROVIDERS: unknown provider "${unknownProvider}" (supported: ${OAUTH_PROVIDERS.join(', ')})`)
  }
  return allowed as OAuthProviderId[]
}

/**
 * The allowed providers that have `<PROVIDER>_CLIENT_ID` and `_CLIENT_SECRET`.
 * An allowed provider without credentials is simply not offered; half a pair,
 * a redirect to another site or a generic `oidc` without its issuer stops the start.
 */
function configuredProviders(source: Source, allowed: OAuthProviderId[], baseUrl: string): OAuthProviderSettings[] {
  const settings: OAuthProviderSettings[] = []
  for (const id of allowed) {
    const prefix = id.toUpperCase()
    const clientId = source[`${prefix}_CLIENT_ID`]?.trim()
    const clientSecret = source[`${prefix}_CLIENT_SECRET`]?.trim()
    if (!clientId && !clientSecret) continue
    if (!clientId || !clientSecret) {
      throw new OAuthSettingsError(
        `${prefix}_${clientId ? 'CLIENT_SECRET' : 'CLIENT_ID'}: is required when ${prefix}_${clientId ? 'CLIENT_ID' : 'CLIENT_SECRET'} is set`,
      )
    }
    const redirect = source[`${prefix}_REDIRECT`]?.trim() || `/login/${id}/callback`
    let redirectUri: string
    try {
      redirectUri = new URL(redirect, `${baseUrl}/`).href
    } catch {
      throw new OAuthSettingsError(`${prefix}_REDIRECT: must be a path or a URL on BASE_URL`)
    }
    // The callback is served here, on the one origin: a redirect elsewhere would hand the code to another site.
    if (new URL(redirectUri).origin !== new URL(baseUrl).origin) {
      throw new OAuthSettingsError(
        `${prefix}_REDIRECT: must be on BASE_URL (${baseUrl}); a relative value such as /login/${id}/callback is made absolute from it`,
      )
    }
    const issuer = providerUrl(source, `${prefix}_ISSUER`)
    if (id === 'oidc' && !issuer) {
      throw new OAuthSettingsError('OIDC_ISSUER: is required for the generic oidc provider (the issuer URL of Keycloak, Authentik, Azure AD, …)')
    }
    settings.push({
      id,
      clientId,
      clientSecret,
      redirectUri,
      authorizationUrl: providerUrl(source, `${prefix}_AUTHORIZATION_URL`),
      tokenUrl: providerUrl(source, `${prefix}_TOKEN_URL`),
      apiUrl: providerUrl(source, `${prefix}_API_URL`),
      issuer,
    })
  }
  return settings
}

/**
 * The sign-in settings from the raw variables: `allowed` and `timeoutMs` are
 * OAUTH_ALLOWED_PROVIDERS and OAUTH_TIMEOUT_MS as env.ts's schema read them,
 * `source` the environment for the per-provider variables.
 */
export function parseOAuthSettings(source: Source, { allowed, timeoutMs, baseUrl }: { allowed: string; timeoutMs: number; baseUrl: string }): OAuthSettings {
  const allowedProviders = allowedProvidersOf(allowed)
  return { allowedProviders, providers: configuredProviders(source, allowedProviders, baseUrl), timeoutMs }
}
