import { APIError } from 'payload'

import { accountEndpoint, fieldErrors, noStore } from '../../../lib/accountHttp'
import { translatorFor } from '../../../lib/i18n/request'

/** POST /api/accounts/verify — the token from the confirmation mail. */
export const verifyEmailEndpoint = () =>
  accountEndpoint('post', '/verify', async (req, body) => {
    const t = translatorFor(req)
    if (!body.token) return fieldErrors({ token: t('error.verify.incomplete') })
    try {
      await req.payload.verifyEmail({ collection: 'users', token: body.token })
    } catch (error) {
      if (error instanceof APIError && error.status >= 400 && error.status < 500) {
        return fieldErrors({ token: t('error.verify.invalid') })
      }
      throw error
    }
    return Response.json({ message: t('verify.done') }, { status: 200, headers: noStore() })
  })
