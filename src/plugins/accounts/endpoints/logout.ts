import { logoutOperation } from 'payload'

import { accountEndpoint, expiredSessionCookie, noStore, signedInUser } from '../../../lib/accountHttp'

/** POST /api/accounts/logout — ends this session on the server, then expires the cookie. */
export const logoutEndpoint = () =>
  accountEndpoint('post', '/logout', async (req) => {
    if (signedInUser(req)) await logoutOperation({ collection: req.payload.collections.users, req })
    const headers = noStore()
    headers.append('Set-Cookie', expiredSessionCookie(req))
    return Response.json({ message: 'Signed out.' }, { status: 200, headers })
  })
