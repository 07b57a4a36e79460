import { createHash } from 'node:crypto'

import type { CollectionBeforeChangeHook, CollectionBeforeOperationHook } from 'payload'

/** Reset tokens are stored as SHA-256 digests, so a read of the users table yields no working reset link. */
export const digestToken = (token: string): string => createHash('sha256').update(token).digest('hex')

/**
 * Payload's forgot-password operation stores its fresh token through
 * `payload.update`, so this hook sees it first; the mail still carries the
 * token itself.
 */
export const storeResetTokenDigest: CollectionBeforeChangeHook = ({ data }) => {
  if (typeof data.resetPasswordToken === 'string' && data.resetPasswordToken !== '') {
    return { ...data, resetPasswordToken: digestToken(data.resetPasswordToken) }
  }
  return data
}

/**
 * Payload's reset-password operation looks the token up as given; it read
 * `data` before this hook ran, so the digest is written into that same object.
 */
export const lookUpResetTokenDigest: CollectionBeforeOperationHook = ({ args, operation }) => {
  if (operation !== 'resetPassword') return args
  const data = args.data as { token?: unknown }
  if (typeof data?.token === 'string') data.token = digestToken(data.token)
  return args
}
