/**
 * What the login and profile pages say after a provider sign-in. The callback
 * redirects with a code from this list (never with the provider's own text),
 * and the page looks the sentence up in its catalog (`oauth.error.<code>`,
 * `oauth.notice.<code>`), so nothing a provider sends is shown.
 */
import { translator, type Translate } from '../../lib/i18n'
import { PROVIDERS } from './providers'
import type { OAuthProviderId } from './settings'

export const OAUTH_ERRORS = ['denied', 'state', 'rejected', 'provider', 'timeout', 'garbage', 'wrong_issuer', 'id_token', 'email_in_use', 'no_email', 'unverified_account', 'identity_taken', 'already_linked', 'last_method', 'unavailable'] as const
export type OAuthErrorCode = (typeof OAUTH_ERRORS)[number]

export const OAUTH_NOTICES = ['verify', 'linked', 'unlinked'] as const
export type OAuthNoticeCode = (typeof OAUTH_NOTICES)[number]

/** A provider's name: a brand is the same in every language; generic OpenID Connect is "single sign-on" in the reader's. */
export function providerLabel(id: string | null | undefined, t: Translate = translator('en')): string {
  if (id === 'oidc') return t('oauth.provider.oidc')
  return (id && (PROVIDERS as Record<string, { label: string }>)[id]?.label) || t('oauth.provider.unknown')
}

/** The sentence for `?oauth_error=…&provider=…`, or undefined for anything not on the list. */
export function oauthErrorMessage(code: string | null, provider: string | null, t: Translate = translator('en')): string | undefined {
  if (!code || !(OAUTH_ERRORS as readonly string[]).includes(code)) return undefined
  return t(`oauth.error.${code as OAuthErrorCode}`, { provider: providerLabel(provider, t) })
}

export function oauthNoticeMessage(code: string | null, provider: string | null, t: Translate = translator('en')): string | undefined {
  if (!code || !(OAUTH_NOTICES as readonly string[]).includes(code)) return undefined
  return t(`oauth.notice.${code as OAuthNoticeCode}`, { provider: providerLabel(provider, t) })
}

export type { OAuthProviderId }
