/**
 * What Inkwell knows about each sign-in provider: whether it speaks OpenID
 * Connect (then its addresses come from the issuer's discovery document and
 * the person from a verified ID token) or plain OAuth 2.0 (fixed addresses,
 * the person from its user API), the scopes it needs, whether it takes PKCE,
 * and how its user API describes a person.
 *
 * Every address can be replaced through `<PROVIDER>_AUTHORIZATION_URL`,
 * `_TOKEN_URL`, `_API_URL` or `_ISSUER` (see settings.ts): a self-hosted
 * GitLab, or the loopback servers of the tests. Nothing else changes with them.
 */
import type { OAuthProviderId, OAuthProviderSettings } from './settings'

/** A person as a provider describes them, reduced to what an account needs. */
export type ProviderProfile = {
  subject: string
  email?: string
  /** Only true when the provider says the address is proven to belong to this person. */
  emailVerified: boolean
  name?: string
  avatarUrl?: string
}

/** Reads the person from a plain OAuth 2.0 provider's user API with an access token. */
export type ProfileReader = (api: (path: string) => Promise<unknown>) => Promise<ProviderProfile>

type Common = { id: OAuthProviderId; label: string; scope: string[]; pkce: boolean }
export type OidcProvider = Common & { kind: 'oidc'; issuer?: string }
export type PlainProvider = Common & {
  kind: 'oauth2'
  authorizationUrl: string
  tokenUrl: string
  apiUrl: string
  readProfile: ProfileReader
}
export type ProviderDefinition = OidcProvider | PlainProvider

type Json = Record<string, unknown>
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined)
const idText = (value: unknown): string | undefined => (typeof value === 'number' ? String(value) : text(value))

/** A profile without a stable subject is garbage: no account can be keyed on it. */
export class ProviderAnswerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProviderAnswerError'
  }
}

function subjectOf(value: unknown): string {
  const subject = idText(value)
  if (!subject || subject.length > 255) throw new ProviderAnswerError('The provider answered without a usable user id.')
  return subject
}

const readGithub: ProfileReader = async (api) => {
  const user = (await api('/user')) as Json
  const emails = (await api('/user/emails').catch(() => [])) as Json[]
  const primary = Array.isArray(emails) ? emails.find((e) => e?.primary && e?.verified) : undefined
  return {
    subject: subjectOf(user?.id),
    email: text(primary?.email) ?? text(user?.email),
    emailVerified: Boolean(primary),
    name: text(user?.name) ?? text(user?.login),
    avatarUrl: text(user?.avatar_url),
  }
}

const readBitbucket: ProfileReader = async (api) => {
  const user = (await api('/user')) as Json
  const emails = (await api('/user/emails').catch(() => ({}))) as { values?: Json[] }
  const primary = Array.isArray(emails?.values) ? emails.values.find((e) => e?.is_primary && e?.is_confirmed) : undefined
  const links = user?.links as { avatar?: { href?: unknown } } | undefined
  return {
    subject: subjectOf(user?.uuid ?? user?.account_id),
    email: text(primary?.email),
    emailVerified: Boolean(primary),
    name: text(user?.display_name) ?? text(user?.nickname),
    avatarUrl: text(links?.avatar?.href),
  }
}

const readFacebook: ProfileReader = async (api) => {
  const user = (await api('/me?fields=id,name,email,picture.type(large)')) as Json
  const picture = user?.picture as { data?: { url?: unknown } } | undefined
  return {
    subject: subjectOf(user?.id),
    email: text(user?.email),
    // The Graph API says nothing about proof of the address, so it is treated as unproven.
    emailVerified: false,
    name: text(user?.name),
    avatarUrl: text(picture?.data?.url),
  }
}

const readTwitter: ProfileReader = async (api) => {
  const answer = (await api('/users/me?user.fields=profile_image_url,confirmed_email')) as { data?: Json }
  const user = answer?.data
  const email = text(user?.confirmed_email)
  return {
    subject: subjectOf(user?.id),
    email,
    // X only returns `confirmed_email` for an address its owner confirmed.
    emailVerified: Boolean(email),
    name: text(user?.name) ?? text(user?.username),
    avatarUrl: text(user?.profile_image_url),
  }
}

const OIDC_SCOPE = ['openid', 'email', 'profile']

export const PROVIDERS: Record<OAuthProviderId, ProviderDefinition> = {
  github: {
    id: 'github',
    label: 'GitHub',
    kind: 'oauth2',
    authorizationUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    apiUrl: 'https://api.github.com',
    scope: ['read:user', 'user:email'],
    pkce: true,
    readProfile: readGithub,
  },
  bitbucket: {
    id: 'bitbucket',
    label: 'Bitbucket',
    kind: 'oauth2',
    authorizationUrl: 'https://bitbucket.org/site/oauth2/authorize',
    tokenUrl: 'https://bitbucket.org/site/oauth2/access_token',
    apiUrl: 'https://api.bitbucket.org/2.0',
    scope: ['account', 'email'],
    // Bitbucket Cloud does not document PKCE for web applications.
    pkce: false,
    readProfile: readBitbucket,
  },
  facebook: {
    id: 'facebook',
    label: 'Facebook',
    kind: 'oauth2',
    authorizationUrl: 'https://www.facebook.com/v19.0/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/v19.0/oauth/access_token',
    apiUrl: 'https://graph.facebook.com/v19.0',
    scope: ['email', 'public_profile'],
    pkce: true,
    readProfile: readFacebook,
  },
  twitter: {
    id: 'twitter',
    label: 'X',
    kind: 'oauth2',
    authorizationUrl: 'https://x.com/i/oauth2/authorize',
    tokenUrl: 'https://api.x.com/2/oauth2/token',
    apiUrl: 'https://api.x.com/2',
    scope: ['users.read', 'tweet.read', 'users.email'],
    // X requires PKCE on every OAuth 2.0 authorization.
    pkce: true,
    readProfile: readTwitter,
  },
  google: { id: 'google', label: 'Google', kind: 'oidc', issuer: 'https://accounts.google.com', scope: OIDC_SCOPE, pkce: true },
  gitlab: { id: 'gitlab', label: 'GitLab', kind: 'oidc', issuer: 'https://gitlab.com', scope: OIDC_SCOPE, pkce: true },
  // LinkedIn's "Sign In with LinkedIn using OpenID Connect"; it offers PKCE to native clients only.
  linkedin: { id: 'linkedin', label: 'LinkedIn', kind: 'oidc', issuer: 'https://www.linkedin.com/oauth', scope: OIDC_SCOPE, pkce: false },
  oidc: { id: 'oidc', label: 'single sign-on', kind: 'oidc', scope: OIDC_SCOPE, pkce: true },
}

/** The definition with the operator's address overrides applied. */
export function providerDefinition(settings: OAuthProviderSettings): ProviderDefinition {
  const definition = PROVIDERS[settings.id]
  if (definition.kind === 'oidc') return { ...definition, issuer: settings.issuer ?? definition.issuer }
  return {
    ...definition,
    authorizationUrl: settings.authorizationUrl ?? definition.authorizationUrl,
    tokenUrl: settings.tokenUrl ?? definition.tokenUrl,
    apiUrl: settings.apiUrl ?? definition.apiUrl,
  }
}
