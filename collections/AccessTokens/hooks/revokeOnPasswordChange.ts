import type { CollectionAfterOperationHook, CollectionBeforeChangeHook, Field, PayloadRequest } from 'payload'

import { noteTokenOutcome } from '../../../src/lib/accountMail'
import { bothLanguages } from '../../../src/lib/i18n/labels'

/**
 * The choice, on the users collection, to keep one's access tokens through a
 * password change (virtual: never stored, always reads empty). Unchecked, the
 * change revokes them; either way the "account changed" mail says which.
 */
export const keepAccessTokensField: Field = {
  name: 'keepAccessTokens',
  label: bothLanguages('admin.field.users.keepAccessTokens.label'),
  type: 'checkbox',
  virtual: true,
  admin: {
    description: bothLanguages('admin.field.users.keepAccessTokens'),
  },
  hooks: { afterRead: [() => undefined] },
}

async function tokensOf(req: PayloadRequest, userId: number | string) {
  const { docs } = await req.payload.find({
    collection: 'access-tokens',
    where: { user: { equals: userId } },
    select: { publicId: true },
    depth: 0,
    pagination: false,
    overrideAccess: true,
    req,
  })
  return docs.map((token) => String((token as { publicId?: string | null }).publicId ?? ''))
}

async function revokeAll(req: PayloadRequest, userId: number | string): Promise<string[]> {
  const publicIds = await tokensOf(req, userId)
  if (publicIds.length) {
    await req.payload.delete({ collection: 'access-tokens', where: { user: { equals: userId } }, overrideAccess: true, req })
  }
  return publicIds
}

/**
 * A password changed by an update (any path: REST, GraphQL, the Local API, the
 * admin, the profile form) revokes the account's tokens in the same
 * transaction, unless `keepAccessTokens` came with it; the outcome is noted
 * for the mail (collections/Users/hooks/mailOldAddress.ts).
 */
export const revokeTokensOnPasswordChange: CollectionBeforeChangeHook = async ({ data, operation, originalDoc, req }) => {
  if (operation !== 'update' || !originalDoc || typeof data.password !== 'string' || data.password === '') return data
  const keep = data.keepAccessTokens === true || data.keepAccessTokens === 'true' || data.keepAccessTokens === 'on'
  const publicIds = keep ? await tokensOf(req, originalDoc.id) : await revokeAll(req, originalDoc.id)
  if (publicIds.length) noteTokenOutcome(req.context, originalDoc.id, { action: keep ? 'kept' : 'revoked', publicIds })
  return data
}

/** A password chosen through a reset link always revokes the tokens: whoever lost the password may have lost them too. */
export const revokeTokensOnPasswordReset: CollectionAfterOperationHook = async ({ operation, result, req }) => {
  if (operation !== 'resetPassword') return result
  const user = (result as { user?: { id?: number } } | undefined)?.user
  if (!user?.id) return result
  const publicIds = await revokeAll(req, user.id)
  if (publicIds.length) noteTokenOutcome(req.context, user.id, { action: 'revoked', publicIds })
  return result
}
