import { APIError } from 'payload'

import { accountEndpoint, fieldErrors, noStore, sessionCookie, validationFieldErrors, type FieldErrors } from '../../../lib/accountHttp'
import { passwordProblem } from '../../../lib/password'
import type { AccountsOptions } from '../options'
import { translatorFor } from '../../../lib/i18n/request'

/** POST /api/accounts/password/reset — token, password twice; signs out every other session and signs this browser in. */
export const resetPasswordEndpoint = ({ secureCookies }: AccountsOptions) =>
  accountEndpoint('post', '/password/reset', async (req, body) => {
    // In the visitor's language (the site forwards their cookie and Accept-Language).
    const t = translatorFor(req)
    const errors: FieldErrors = {}
    if (!body.token) errors.token = t('error.reset.incomplete')
    const weak = passwordProblem(body.password, t)
    if (weak) errors.password = weak
    else if (body.password !== body.passwordConfirm) errors.passwordConfirm = t('validation.passwordsDiffer')
    if (Object.keys(errors).length) return fieldErrors(errors)
    try {
      const { token } = await req.payload.resetPassword({
        collection: 'users',
        data: { token: body.token!, password: body.password! },
        overrideAccess: true,
        req,
      })
      const headers = noStore()
      if (token) headers.append('Set-Cookie', sessionCookie(req, token, { remember: false, secure: secureCookies }))
      return Response.json({ message: t('reset.done') }, { status: 200, headers })
    } catch (error) {
      const fromValidation = validationFieldErrors(error)
      if (fromValidation) return fieldErrors(fromValidation)
      if (error instanceof APIError && error.status === 403) {
        return fieldErrors({ token: t('error.reset.expired') })
      }
      throw error
    }
  })
