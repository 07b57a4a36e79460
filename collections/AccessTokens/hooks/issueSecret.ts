import type { CollectionAfterReadHook, CollectionBeforeChangeHook } from 'payload'

import { issueToken, tokenCreated } from '../../../src/plugins/accessTokens/tokens'

const ISSUED = 'issuedAccessTokens'

type Issued = Record<string, string>

/**
 * On create the server draws the token: the public id and the secret's hash
 * are stored, whatever the client sent; the whole token is kept for this
 * request only, to be shown once in the create answer.
 */
export const issueSecret: CollectionBeforeChangeHook = ({ data, operation, req }) => {
  if (operation !== 'create') return data
  const issued = issueToken()
  tokenCreated(issued.publicId) // a negative cache of unknown ids forgets this one (src/server/credentialCheck.ts)
  req.context[ISSUED] = { ...(req.context[ISSUED] as Issued | undefined), [issued.publicId]: issued.token }
  // A token is its creator's, always: not even a user manager makes one that acts as someone else.
  const user = req.user?.collection === 'users' ? req.user.id : data.user
  return { ...data, user, publicId: issued.publicId, secretHash: issued.secretHash, lastUsedAt: null }
}

/** The token appears in the answer of the request that created it, and never again. */
export const showTokenOnce: CollectionAfterReadHook = ({ doc, req }) => {
  const token = (req.context[ISSUED] as Issued | undefined)?.[doc.publicId as string]
  return token ? { ...doc, token } : doc
}
