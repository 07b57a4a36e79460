/**
 * From a verified provider identity to an Inkwell account:
 *  - a known identity signs its user in;
 *  - an unknown one creates a user, unless its e-mail belongs to an account
 *    already: that is never merged (whoever controls an address at a provider
 *    would take the account over); the owner signs in and links from the profile;
 *  - a signed-in user links it to their own account.
 * A new user is created through the same Local API create as a registration,
 * so the first/second/default role rule (assignInitialRoles) and the
 * verification rule (markVerified) hold; it has no password until a reset sets one.
 */
import { commitTransaction, createLocalReq, initTransaction, killTransaction, ValidationError, type Payload, type PayloadRequest } from 'payload'

import { REGISTRATION_FORM } from '../../../collections/Users/hooks/registrationFormOnly'
import { siteName } from '../../lib/accountHttp'
import { verifyEmailMail } from '../../lib/accountMail'
import { cleanDisplayName } from '../../lib/displayName'
import { emailProblem, normalEmail } from '../../lib/emailAddress'
import { readHiddenAuthFields, updateWithoutHooks } from '../../lib/pool'
import type { OAuthProviderId } from './settings'
import { randomToken } from './attempts'
import type { OAuthErrorCode } from './messages'
import { PROVIDERS, type ProviderProfile } from './providers'

export type AccountOutcome =
  | { kind: 'signed-in'; userId: number; created: boolean }
  | { kind: 'verify-mail' }
  | { kind: 'linked' }
  | { kind: 'refused'; code: OAuthErrorCode }

type Options = { verifyEmail: boolean; baseUrl: string }

async function inTransaction<T>(payload: Payload, work: (req: PayloadRequest) => Promise<T>): Promise<T> {
  const req = await createLocalReq({}, payload)
  const owned = await initTransaction(req)
  try {
    const result = await work(req)
    if (owned) await commitTransaction(req)
    return result
  } catch (error) {
    await killTransaction(req)
    throw error
  }
}

async function findIdentity(req: PayloadRequest, provider: OAuthProviderId, subject: string) {
  const { docs } = await req.payload.find({
    collection: 'oauth-identities',
    where: { and: [{ provider: { equals: provider } }, { subject: { equals: subject } }] },
    depth: 0,
    limit: 1,
    overrideAccess: true,
    req,
  })
  return docs[0]
}

function createIdentity(req: PayloadRequest, userId: number, provider: OAuthProviderId, profile: ProviderProfile) {
  return req.payload.create({
    collection: 'oauth-identities',
    data: {
      user: userId,
      provider,
      subject: profile.subject,
      email: profile.email?.slice(0, 320) ?? null,
      emailVerified: profile.emailVerified,
      name: profile.name?.slice(0, 200) ?? null,
    },
    overrideAccess: true,
    req,
  })
}

function displayName(profile: ProviderProfile, email: string, provider: OAuthProviderId): string {
  const name = cleanDisplayName(profile.name ?? email.split('@')[0] ?? '').replace(/\s+/g, ' ').trim().slice(0, 80)
  return name || `${PROVIDERS[provider].label} user`
}

export async function signInOrRegister(payload: Payload, provider: OAuthProviderId, profile: ProviderProfile, options: Options): Promise<AccountOutcome> {
  return inTransaction(payload, async (req) => {
    const known = await findIdentity(req, provider, profile.subject)
    if (known) {
      const user = await readHiddenAuthFields(payload, known.user as number, req)
      if (!user) return { kind: 'refused', code: 'state' }
      if (user._verified === false) return { kind: 'refused', code: 'unverified_account' }
      return { kind: 'signed-in', userId: user.id, created: false }
    }

    const email = normalEmail(profile.email)
    if (!email || emailProblem(email)) return { kind: 'refused', code: 'no_email' }
    const { totalDocs } = await payload.count({ collection: 'users', where: { email: { equals: email } }, overrideAccess: true, req })
    // Never merged by e-mail, verified or not: the owner links the provider from the profile.
    if (totalDocs > 0) return { kind: 'refused', code: 'email_in_use' }

    const name = displayName(profile, email, provider)
    const mustConfirm = options.verifyEmail && !profile.emailVerified
    let user
    try {
      user = await payload.create({
        collection: 'users',
        // A random password only because Payload's create needs one; it is removed below.
        data: { email, name, password: randomToken(32) },
        overrideAccess: true,
        disableVerificationEmail: true,
        // An address the provider did not prove is treated as one typed into the registration form.
        context: profile.emailVerified ? {} : { [REGISTRATION_FORM]: true },
        req,
      })
    } catch (error) {
      if (error instanceof ValidationError && error.data.errors.some((e) => e.path === 'email')) return { kind: 'refused', code: 'email_in_use' }
      throw error
    }
    await updateWithoutHooks(payload, { collection: 'users', id: user.id, data: { hash: null, salt: null }, req })
    await createIdentity(req, user.id, provider, profile)

    if (mustConfirm) {
      const stored = await readHiddenAuthFields(payload, user.id, req)
      const mail = verifyEmailMail({ siteName: await siteName(req), baseUrl: options.baseUrl, token: stored?._verificationToken ?? '', name })
      await payload.sendEmail({ to: email, subject: mail.subject, text: mail.text, html: mail.html })
      return { kind: 'verify-mail' }
    }
    return { kind: 'signed-in', userId: user.id, created: true }
  })
}

export async function linkToUser(payload: Payload, provider: OAuthProviderId, profile: ProviderProfile, userId: number): Promise<AccountOutcome> {
  return inTransaction(payload, async (req) => {
    const known = await findIdentity(req, provider, profile.subject)
    if (known) return known.user === userId ? { kind: 'linked' } : { kind: 'refused', code: 'identity_taken' }
    try {
      await createIdentity(req, userId, provider, profile)
    } catch (error) {
      if (error instanceof ValidationError) return { kind: 'refused', code: 'already_linked' }
      throw error
    }
    return { kind: 'linked' }
  })
}
