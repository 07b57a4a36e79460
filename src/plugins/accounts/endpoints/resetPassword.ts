import { APIError } from 'payload'

import { accountEndpoint, fieldErrors, noStore, sessionCookie, validationFieldErrors, type FieldErrors } from '../../../lib/accountHttp'
import { passwordProblem } from '../../../lib/password'
import type { AccountsOptions } from '../options'
import { translatorFor } from '../../../lib/i18n/request'

/** POST /api/accounts/password/reset — token, password twice; signs out every other session and signs this browser in. */
export const resetPasswordEndpoint = ({ secureCookies }: AccountsOptions) =>
  accountEndpoint('post', '/password/reset', async (req, body) => {
    const errors: FieldErrors = {}
    if (!body.token) errors.token = 'This reset link is incomplete. Ask for a new one.'
    const weak = passwordProblem(body.password, translatorFor(req))
    if (weak) errors.password = weak
    else if (body.password !== body.passwordConfirm) errors.passwordConfirm = 'The two passwords differ.'
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
      return Response.json({ message: 'Your password has been changed.' }, { status: 200, headers })
    } catch (error) {
      const fromValidation = validationFieldErrors(error)
      if (fromValidation) return fieldErrors(fromValidation)
      if (error instanceof APIError && error.status === 403) {
        return fieldErrors({ token: 'This reset link has expired or was already used. Ask for a new one.' })
      }
      throw error
    }
  })
