import type { Endpoint } from 'payload'

import { fieldErrors, noStore } from '../../lib/accountHttp'
import { translatorFor } from '../../lib/i18n/request'
import { unsubscribeByToken } from './unsubscribe'

/**
 * POST /api/follows/unsubscribe?token=… — RFC 8058 one-click unsubscribe: the
 * mail client posts `List-Unsubscribe=One-Click` to the address in the mail's
 * List-Unsubscribe header, with no session. The signed token is the only
 * credential; ending a follow twice answers the same.
 */
export const unsubscribeEndpoint: Endpoint = {
  path: '/unsubscribe',
  method: 'post',
  handler: async (req) => {
    // No session: the language the mail client's request asks for (Accept-Language), else English.
    const t = translatorFor(req)
    const token = new URL(req.url ?? '', 'http://localhost').searchParams.get('token')
    if ((await unsubscribeByToken(req.payload, token)) === 'invalid') {
      return fieldErrors({ token: t('error.unsubscribe.invalid') })
    }
    return Response.json({ message: t('unsubscribe.stopped') }, { status: 200, headers: noStore() })
  },
}
