import { AuthenticationError, LockedAuth, logoutOperation, UnverifiedEmail } from 'payload'

import { accountEndpoint, fieldErrors, noStore, sessionCookie } from '../../../lib/accountHttp'
import { normalEmail } from '../../../lib/emailAddress'
import { safeRedirect } from '../../../lib/safeRedirect'
import type { AccountsOptions } from '../options'
import { translatorFor } from '../../../lib/i18n/request'


/** POST /api/accounts/login — e-mail, password, remember, next (a local path only). */
export const loginEndpoint = ({ secureCookies }: AccountsOptions) =>
  accountEndpoint('post', '/login', async (req, body) => {
    // In the visitor's language (the site forwards their cookie and Accept-Language).
    const t = translatorFor(req)
    const email = normalEmail(body.email)
    const redirect = safeRedirect(body.next)
    if (!email || !body.password) {
      return fieldErrors({
        ...(email ? {} : { email: t('validation.emailEmpty') }),
        ...(body.password ? {} : { password: t('error.login.password') }),
      })
    }
    const previousUser = req.user
    let result
    try {
      result = await req.payload.login({ collection: 'users', data: { email, password: body.password }, req })
    } catch (error) {
      if (error instanceof UnverifiedEmail) {
        // Only reached with the right password, so it tells nothing to someone who lacks it.
        return fieldErrors({ form: t('error.login.unverified') }, 403)
      }
      // One answer for a wrong password, an unknown address and a locked account, so none of them tells that an account exists.
      if (error instanceof AuthenticationError || error instanceof LockedAuth) return fieldErrors({ form: t('error.login.failed') }, 401)
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
