import { AuthenticationError, LockedAuth, logoutOperation, UnverifiedEmail } from 'payload'

import { accountEndpoint, fieldErrors, noStore, sessionCookie } from '../../../lib/accountHttp'
import { normalEmail } from '../../../lib/emailAddress'
import { safeRedirect } from '../../../lib/safeRedirect'
import type { AccountsOptions } from '../options'

/** One answer for a wrong password, an unknown address and a locked account, so none of them tells that an account exists. */
export const LOGIN_REFUSED =
  'The e-mail or password is incorrect. After 5 failed attempts an account is locked for 10 minutes; a password reset unlocks it.'

/** POST /api/accounts/login — e-mail, password, remember, next (a local path only). */
export const loginEndpoint = ({ secureCookies }: AccountsOptions) =>
  accountEndpoint('post', '/login', async (req, body) => {
    const email = normalEmail(body.email)
    const redirect = safeRedirect(body.next)
    if (!email || !body.password) {
      return fieldErrors({
        ...(email ? {} : { email: 'Enter your e-mail address.' }),
        ...(body.password ? {} : { password: 'Enter your password.' }),
      })
    }
    const previousUser = req.user
    let result
    try {
      result = await req.payload.login({ collection: 'users', data: { email, password: body.password }, req })
    } catch (error) {
      if (error instanceof UnverifiedEmail) {
        // Only reached with the right password, so it tells nothing to someone who lacks it.
        return fieldErrors({ form: 'Confirm your e-mail address first: open the link in the mail we sent you.' }, 403)
      }
      if (error instanceof AuthenticationError || error instanceof LockedAuth) return fieldErrors({ form: LOGIN_REFUSED }, 401)
      throw error
    }
    // Payload's login opened a new session (new sid); the one this browser held before, if any, is closed.
    if (previousUser?.collection === 'users' && (previousUser as { _sid?: string })._sid) {
      req.user = previousUser
      await logoutOperation({ collection: req.payload.collections.users, req }).catch(() => undefined)
    }
    const headers = noStore()
    headers.append(
      'Set-Cookie',
      sessionCookie(req, result.token!, { remember: body.remember === 'on' || body.remember === 'true', secure: secureCookies }),
    )
    return Response.json({ redirect, user: { id: result.user?.id, name: result.user?.name } }, { status: 200, headers })
  })
