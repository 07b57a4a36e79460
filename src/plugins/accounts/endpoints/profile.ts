import { APIError, LockedAuth, type PayloadRequest } from 'payload'

import { accountEndpoint, fieldErrors, noStore, signedInUser, validationFieldErrors, type FieldErrors } from '../../../lib/accountHttp'
import { normalEmail } from '../../../lib/emailAddress'
import { translatorFor } from '../../../lib/i18n/request'

async function emailTaken(req: PayloadRequest, email: string, exceptId: number): Promise<boolean> {
  const { totalDocs } = await req.payload.count({
    collection: 'users',
    where: { and: [{ email: { equals: email } }, { id: { not_equals: exceptId } }] },
    overrideAccess: true,
    req,
  })
  return totalDocs > 0
}

/** The collection names the password `password`; the form calls it `newPassword`. */
const FORM_NAMES = { password: 'newPassword' }

/**
 * POST /api/accounts/profile — name, introduction; e-mail and password with
 * the current password. The rules (current password, password policy,
 * lockout, the mail to the old address) are the Users collection's: this
 * form only maps its fields onto one update made with the user's own rights.
 */
export const profileEndpoint = () =>
  accountEndpoint('post', '/profile', async (req, body) => {
    const user = signedInUser(req)
    const t = translatorFor(req)
    if (!user) return fieldErrors({ form: t('error.profile.signIn') }, 401)
    const errors: FieldErrors = {}
    const data: Record<string, unknown> = {}

    if (body.name !== undefined) {
      const name = body.name.trim()
      if (!name) errors.name = t('validation.name')
      else data.name = name
    }
    // Plain text: the site escapes it when it shows it, so no markup survives.
    if (body.introduction !== undefined) data.introduction = body.introduction.replace(/\r\n/g, '\n').trim()
    const email = normalEmail(body.email)
    if (email && email !== user.email) {
      if (await emailTaken(req, email, user.id)) errors.email = t('validation.emailTaken')
      else data.email = email
    }
    if (body.newPassword) {
      if (body.newPassword !== body.newPasswordConfirm) errors.newPasswordConfirm = t('validation.passwordsDiffer')
      else data.password = body.newPassword
    }
    if (Object.keys(errors).length) return fieldErrors(errors)
    if (data.email !== undefined || data.password !== undefined) data.currentPassword = body.currentPassword ?? ''
    // A password change revokes the account's access tokens unless the form's box says to keep them (the access-token feature's rule).
    if (data.password !== undefined && (body.keepAccessTokens === 'on' || body.keepAccessTokens === 'true')) data.keepAccessTokens = true

    try {
      const updated = await req.payload.update({ collection: 'users', id: user.id, data, overrideAccess: false, req, depth: 1 })
      return Response.json(
        { message: t('account.profileSaved'), user: { id: updated.id, name: updated.name, email: updated.email, introduction: updated.introduction } },
        { status: 200, headers: noStore() },
      )
    } catch (error) {
      const fromValidation = validationFieldErrors(error, FORM_NAMES)
      if (fromValidation) return fieldErrors(fromValidation)
      if (error instanceof LockedAuth) {
        return fieldErrors({ currentPassword: t('error.profile.locked') }, 423)
      }
      if (error instanceof APIError && error.status === 403) return fieldErrors({ form: error.message }, 403)
      throw error
    }
  })
