/**
 * Sign-in providers (src/plugins/oauth): the buttons to show, and the visitor's linked accounts.
 */
import { readHiddenAuthFields } from '../../../../src/lib/pool'
import { oauthOptions } from '../../../../src/plugins/oauth/options'
import { PROVIDERS } from '../../../../src/plugins/oauth/providers'
import type { User } from '../../../../src/payload-types'
import { asVisitor, payload } from './payload'

/** Providers that are allowed (OAUTH_ALLOWED_PROVIDERS) and configured (client id and secret), in that order; none without the oauth plugin. */
export function signInProviders(): { id: string; label: string }[] {
  return (oauthOptions(payload())?.providers ?? []).map((p) => ({ id: p.id, label: PROVIDERS[p.id].label }))
}

export type LinkedProvider = { provider: string; email?: string | null; createdAt: string }

/** The visitor's linked provider accounts (read as the visitor), and whether the account has a password at all. */
export async function mySignInMethods(me: User): Promise<{ linked: LinkedProvider[]; hasPassword: boolean }> {
  // Without the oauth plugin there is no collection of linked accounts: none are linked.
  const linkedAccounts = payload().collections['oauth-identities']
    ? payload().find({ collection: 'oauth-identities', where: { user: { equals: me.id } }, depth: 0, pagination: false, sort: 'createdAt', ...asVisitor(me) })
    : Promise.resolve({ docs: [] })
  const [{ docs }, stored] = await Promise.all([linkedAccounts, readHiddenAuthFields(payload(), me.id)])
  return {
    linked: docs.map((d) => ({ provider: d.provider, email: d.email, createdAt: d.createdAt })),
    hasPassword: Boolean(stored?.hash),
  }
}
