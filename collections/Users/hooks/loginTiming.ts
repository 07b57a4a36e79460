import { AuthenticationError, type CollectionBeforeOperationHook } from 'payload'

import { normalEmail } from '../../../src/lib/emailAddress'
import { spendPasswordCheckTime } from '../../../src/lib/password'
import { readHiddenAuthFields } from '../../../src/lib/pool'

/**
 * Payload answers an unknown or locked address before hashing the password,
 * so such answers come back hundreds of milliseconds sooner than a wrong
 * password for a real account. Spending the same hashing time first makes the
 * time of every failed login alike.
 *
 * A locked account is then refused here with the very error an unknown
 * address gets (AuthenticationError: same status, message and error name), so
 * no login path says "locked": Payload's LockedAuth never reaches REST,
 * GraphQL's `loginUser` (whose errors no collection hook sees) or a Local API
 * caller. (lockoutAnswer.ts still covers the rare lock a parallel attempt sets
 * mid-login, over REST.)
 */
export const equalizeLoginTime: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if (operation !== 'login') return args
  const data = args.data as { email?: unknown; password?: unknown } | undefined
  const email = normalEmail(data?.email)
  if (!email) return args
  const user = await readHiddenAuthFields(req.payload, { email }, req)
  const locked = Boolean(user?.lockUntil && new Date(user.lockUntil).getTime() > Date.now())
  if (!user || locked) await spendPasswordCheckTime(data?.password)
  if (locked) throw new AuthenticationError(req.t)
  return args
}
