import { APIError } from 'payload'

import { accountEndpoint, fieldErrors, noStore } from '../../../lib/accountHttp'

/** POST /api/accounts/verify — the token from the confirmation mail. */
export const verifyEmailEndpoint = () =>
  accountEndpoint('post', '/verify', async (req, body) => {
    if (!body.token) return fieldErrors({ token: 'This confirmation link is incomplete.' })
    try {
      await req.payload.verifyEmail({ collection: 'users', token: body.token })
    } catch (error) {
      if (error instanceof APIError && error.status >= 400 && error.status < 500) {
        return fieldErrors({ token: 'This confirmation link is not valid, or was already used.' })
      }
      throw error
    }
    return Response.json({ message: 'Your e-mail address is confirmed. You can sign in now.' }, { status: 200, headers: noStore() })
  })
