import {
  APIError,
  incrementLoginAttempts,
  LockedAuth,
  ValidationError,
  type CollectionBeforeOperationHook,
  type PayloadRequest,
} from 'payload'

import { normalEmail } from '../../../src/lib/emailAddress'
import { isCurrentPassword } from '../../../src/lib/password'
import { readHiddenAuthFields } from '../../../src/lib/pool'
import { validationTranslator } from '../../../src/lib/i18n/request'

type StoredUser = { id: number; email?: string | null; loginAttempts?: number | null; lockUntil?: string | null }

async function storedUser(req: PayloadRequest, id: number | string): Promise<StoredUser | null> {
  return readHiddenAuthFields(req.payload, id, req)
}

/**
 * E-mail and password changes, on every path a client can take (REST
 * `PATCH /api/users/:id`, GraphQL, the Local API with `overrideAccess: false`,
 * the reader site's profile form):
 * - only the account itself may change them (a manager sends a reset link instead);
 * - the request carries the account's current password (`currentPassword`);
 * - a wrong current password counts toward the lockout, as a failed login does.
 * The application's own trusted calls (`overrideAccess: true`) pass.
 */
export const guardCredentialChanges: CollectionBeforeOperationHook = async ({ args, operation, req, collection }) => {
  if (operation !== 'update' && operation !== 'updateByID') return args
  const data = args.data as { password?: unknown; email?: unknown; currentPassword?: unknown } | undefined
  if (!data || args.overrideAccess) return args
  const setsPassword = typeof data.password === 'string' && data.password !== ''
  const setsEmail = typeof data.email === 'string'
  if (!setsPassword && !setsEmail) return args

  const id = (args as { id?: number | string }).id
  const t = validationTranslator(req)
  if (id === undefined) throw new APIError(t('error.credentials.oneAccount'), 403, undefined, true)
  const target = await storedUser(req, id)
  if (!target) return args // Payload answers 404 itself
  const changesEmail = setsEmail && normalEmail(data.email) !== target.email
  if (!setsPassword && !changesEmail) return args

  if (!req.user || req.user.collection !== 'users' || String(req.user.id) !== String(target.id)) {
    throw new APIError(t('error.credentials.othersAccount'), 403, undefined, true)
  }
  if (target.lockUntil && new Date(target.lockUntil).getTime() > Date.now()) throw new LockedAuth(req.t)
  if (!(await isCurrentPassword(req.payload, target.id, data.currentPassword))) {
    if (collection.auth.maxLoginAttempts > 0) {
      // Outside the request's transaction on purpose: the refusal below rolls that one back, the count must stay.
      await incrementLoginAttempts({ collection, payload: req.payload, user: target as never })
    }
    throw new ValidationError({ collection: 'users', errors: [{ path: 'currentPassword', message: t('error.credentials.currentPassword') }] })
  }
  return args
}
