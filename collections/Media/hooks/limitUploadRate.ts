import type { CollectionBeforeOperationHook } from 'payload'

import { limitByKey } from '../../../src/lib/rateLimit'

/**
 * A visitor's account may upload (media and avatars alike) at most
 * UPLOAD_RATE_LIMIT files an hour; the application's own writes are not limited.
 */
export const limitUploadRate: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  const uploading = operation === 'create' || (operation === 'update' && req.file)
  if (uploading && req.user && req.payloadAPI !== 'local') {
    await limitByKey(req, 'upload', `user:${req.user.id}`, 'error.rateLimit.uploads')
  }
  return args
}
