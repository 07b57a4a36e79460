import { logoutOperation } from 'payload'

import { accountEndpoint, expiredSessionCookie, noStore, signedInUser } from '../../../lib/accountHttp'
import { translatorFor } from '../../../lib/i18n/request'

/** POST /api/accounts/logout — ends this session on the server, then expires the cookie. */
export const logoutEndpoint = () =>
  accountEndpoint('post', '/logout', async (req) => {
    // Worded before the session ends: a signed-in user's own language.
    const t = translatorFor(req)
    if (signedInUser(req)) await logoutOperation({ collection: req.payload.collections.users, req })
    const headers = noStore()
    headers.append('Set-Cookie', expiredSessionCookie(req))
    return Response.json({ message: t('account.signedOut') }, { status: 200, headers })
  })
