/**
 * The Payload session a provider sign-in gives: the same as a password login
 * (a session row on the user, a token signed with the user's fields and that
 * session id, the same cookie), built from Payload's own exported steps since
 * its login operation needs a password.
 */
import { getFieldsToSign, jwtSign, type PayloadRequest } from 'payload'
import { addSessionToUser } from 'payload/shared'

import { sessionCookie } from '../../lib/accountHttp'
import { readHiddenAuthFields } from '../../lib/pool'

export async function sessionCookieFor(req: PayloadRequest, userId: number, secure: boolean): Promise<string> {
  const { payload } = req
  const collectionConfig = payload.collections.users.config
  const user = (await readHiddenAuthFields(payload, userId, req))!
  const { sid } = await addSessionToUser({ collectionConfig, payload, req, user: user as never })
  const fieldsToSign = getFieldsToSign({ collectionConfig, email: user.email, sid, user: { ...user, collection: 'users' } as never })
  const { token } = await jwtSign({ fieldsToSign, secret: payload.secret, tokenExpiration: collectionConfig.auth.tokenExpiration })
  return sessionCookie(req, token, { remember: false, secure })
}
