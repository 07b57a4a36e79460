import type { CollectionBeforeOperationHook } from 'payload'

import { limitByIp } from '../../../src/lib/rateLimit'

/**
 * Per-IP limits on login and password-reset requests, applied to Payload's
 * operations themselves so the reader site's forms and the REST/admin routes
 * share one count.
 */
export const limitAuthAttempts: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if (operation === 'login') await limitByIp(req, 'login')
  if (operation === 'forgotPassword') await limitByIp(req, 'passwordReset')
  return args
}
