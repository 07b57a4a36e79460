import type { CollectionBeforeValidateHook } from 'payload'

import { limitByKey } from '../../../src/lib/rateLimit'

/** A visitor's account may not flood replies; the application's own writes (Local API) are not limited. */
export const limitReplyFlood: CollectionBeforeValidateHook = async ({ data, operation, req }) => {
  if (operation === 'create' && req.user && req.payloadAPI !== 'local') {
    await limitByKey(req, 'reply', `user:${req.user.id}`, 'error.rateLimit.replies')
  }
  return data
}
