import { Forbidden, type CollectionBeforeOperationHook } from 'payload'

import { hasPermission } from '../../../src/access'

/** Set in req.context by the register endpoint (src/plugins/accounts/endpoints/register.ts). */
export const REGISTRATION_FORM = 'inkwellRegistrationForm'

/**
 * A visitor registers through the reader site's form, which has the captcha
 * and the rate limit; a bare `POST /api/users` from the public is refused.
 * Still allowed: the admin's create-first-user screen on an empty site, user
 * managers, and the application's own Local API calls.
 */
export const registrationFormOnly: CollectionBeforeOperationHook = async ({ args, operation, req, context }) => {
  if (operation !== 'create') return args
  const overHttp = req.payloadAPI !== 'local'
  if (!overHttp || context?.[REGISTRATION_FORM] || req.context?.[REGISTRATION_FORM]) return args
  if (req.user && (await hasPermission(req, 'users.manage'))) return args
  const { totalDocs } = await req.payload.count({ collection: 'users', overrideAccess: true, req })
  if (totalDocs === 0) return args
  throw new Forbidden(req.t)
}
