import type { CollectionBeforeOperationHook } from 'payload'

import { normalEmail } from '../../../src/lib/emailAddress'
import { spendPasswordCheckTime } from '../../../src/lib/password'
import { readHiddenAuthFields } from '../../../src/lib/pool'

/**
 * Payload answers an unknown or locked address before hashing the password,
 * so such answers come back hundreds of milliseconds sooner than a wrong
 * password for a real account. Spending the same hashing time first makes the
 * time of every failed login alike.
 */
export const equalizeLoginTime: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if (operation !== 'login') return args
  const data = args.data as { email?: unknown; password?: unknown } | undefined
  const email = normalEmail(data?.email)
  if (!email) return args
  const user = await readHiddenAuthFields(req.payload, { email }, req)
  const locked = Boolean(user?.lockUntil && new Date(user.lockUntil).getTime() > Date.now())
  if (!user || locked) await spendPasswordCheckTime(data?.password)
  return args
}
