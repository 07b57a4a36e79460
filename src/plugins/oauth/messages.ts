/**
 * What the login and profile pages say after a provider sign-in. The callback
 * redirects with a code from this list (never with the provider's own text),
 * and the page looks the sentence up, so nothing a provider sends is shown.
 */
import { PROVIDERS } from './providers'
import type { OAuthProviderId } from './settings'

export const OAUTH_ERRORS = {
  denied: (p: string) => `The sign-in with ${p} was cancelled or refused there. Nothing was changed.`,
  state: () => 'This sign-in expired, was already used, or was started in another browser. Please start again.',
  rejected: (p: string) => `${p} did not accept this sign-in (its code may have expired or been used already). Please start again.`,
  provider: (p: string) => `${p} reported an error. Please try again in a moment.`,
  timeout: (p: string) => `${p} did not answer in time. Please try again later.`,
  garbage: (p: string) => `${p} answered with something we could not read. Please try again later.`,
  wrong_issuer: (p: string) => `This answer did not come from ${p} (it names another issuer), so you were not signed in. Please start again.`,
  id_token: (p: string) => `The identity ${p} sent could not be verified, so you were not signed in.`,
  email_in_use: (p: string) =>
    `An account with the e-mail address of your ${p} account already exists. Sign in to it first, then link ${p} from your profile.`,
  no_email: (p: string) => `${p} did not share an e-mail address with us, which a new account needs. Register with your e-mail address instead.`,
  unverified_account: () => 'Confirm your e-mail address first: open the link in the mail we sent you.',
  identity_taken: (p: string) => `This ${p} account is already linked to another account here.`,
  already_linked: (p: string) => `A ${p} account is already linked to yours; unlink it first.`,
  last_method: (p: string) => `Your ${p} account is your only way to sign in: set a password or link another provider before unlinking it.`,
  unavailable: (p: string) => `Signing in with ${p} is not available right now. Please try again later.`,
} as const
export type OAuthErrorCode = keyof typeof OAUTH_ERRORS

export const OAUTH_NOTICES = {
  verify: () => 'Almost done: open the link we mailed you to confirm your address, then sign in.',
  linked: (p: string) => `${p} is now linked: you can sign in with it.`,
  unlinked: (p: string) => `${p} is unlinked from your account.`,
} as const
export type OAuthNoticeCode = keyof typeof OAUTH_NOTICES

export function providerLabel(id: string | null | undefined): string {
  return (id && (PROVIDERS as Record<string, { label: string }>)[id]?.label) || 'the provider'
}

/** The sentence for `?oauth_error=…&provider=…`, or undefined for anything not on the list. */
export function oauthErrorMessage(code: string | null, provider: string | null): string | undefined {
  if (!code || !Object.hasOwn(OAUTH_ERRORS, code)) return undefined
  return OAUTH_ERRORS[code as OAuthErrorCode](providerLabel(provider))
}

export function oauthNoticeMessage(code: string | null, provider: string | null): string | undefined {
  if (!code || !Object.hasOwn(OAUTH_NOTICES, code)) return undefined
  return OAUTH_NOTICES[code as OAuthNoticeCode](providerLabel(provider))
}

export type { OAuthProviderId }
