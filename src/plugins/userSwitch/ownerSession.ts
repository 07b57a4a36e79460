import type { CollectionAfterLogoutHook, CollectionBeforeOperationHook, TypedUser } from 'payload'

import { readHiddenAuthFields, updateWithoutHooks } from '../../lib/pool'
import { ownerSessionOf, switchedFrom } from './strategy'

/*
 * Refreshing or ending "the session" while switched is about the owner's own
 * session: the switched user has none here. A refresh extends the owner's
 * token (and the switch goes on); a sign-out ends the owner's session, and
 * with it the switch, which names that session.
 */

/** A token refresh while switched refreshes the owner's own token. */
export const refreshAsOwner: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if (operation !== 'refresh') return args
  const from = switchedFrom(req.user)
  const sid = ownerSessionOf(req.user)
  if (!from || !sid) return args
  const owner = (await req.payload.findByID({ collection: 'users', id: from.id, depth: 0, overrideAccess: true, disableErrors: true, req })) as
    | (TypedUser & { _sid?: string; _strategy?: string })
    | null
  if (!owner) return args
  owner.collection = 'users'
  owner._strategy = 'local-jwt'
  owner._sid = sid
  req.user = owner
  return args
}

/**
 * Payload's sign-out removes the session of `req.user`, which while switched
 * is the user browsed as (who has no session here); this removes the owner's.
 */
export const endOwnerSessionOnLogout: CollectionAfterLogoutHook = async ({ req }) => {
  const from = switchedFrom(req.user)
  const sid = ownerSessionOf(req.user)
  if (!from || !sid) return
  const owner = await readHiddenAuthFields(req.payload, from.id, req)
  if (!owner) return
  await updateWithoutHooks(req.payload, {
    collection: 'users',
    id: from.id,
    data: { ...owner, sessions: (owner.sessions ?? []).filter((s) => s.id !== sid) },
    req,
  })
}
