import type { CollectionBeforeOperationHook } from 'payload'

import { limitByIp } from '../../../src/lib/rateLimit'

/** Set in the operation's context by a caller that has counted this request's attempt itself (the reset-request form). */
export const RATE_LIMITED_ALREADY = 'inkwellRateLimitedAlready'

/**
 * Per-IP limits on login and password-reset requests, applied to Payload's
 * operations themselves so the reader site's forms and the REST/admin routes
 * share one count.
 */
export const limitAuthAttempts: CollectionBeforeOperationHook = async ({ args, operation, req, context }) => {
  if (context?.[RATE_LIMITED_ALREADY]) return args
  if (operation === 'login') await limitByIp(req, 'login')
  if (operation === 'forgotPassword') await limitByIp(req, 'passwordReset')
  return args
}
