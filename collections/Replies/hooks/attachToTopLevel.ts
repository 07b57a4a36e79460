import type { CollectionBeforeChangeHook } from 'payload'

import { relationId } from '../../../src/lib/relationId'

/**
 * Threads are one level deep: an answer to an answer is filed under the
 * top-level reply it belongs to (the `parent` field has already been checked
 * by its validation: same article, readable by the writer). The reply that was
 * actually answered is left in the operation's context (`ANSWERED_REPLY`) for
 * whoever tells its author (the notifications plugin).
 */
export const ANSWERED_REPLY = 'answeredReplyId'

export const attachToTopLevel: CollectionBeforeChangeHook = async ({ data, operation, req }) => {
  if (operation !== 'create') return data
  const parentId = relationId(data.parent)
  // Reset: one request may create several replies (the context is the request's).
  delete req.context[ANSWERED_REPLY]
  if (!parentId) return data
  const parent = await req.payload.findByID({ collection: 'replies', id: parentId, depth: 0, select: { parent: true }, overrideAccess: true, req })
  const grandparentId = relationId(parent.parent)
  // On req.context, not the hook's `context`: the lookup above (a Local API call with req) replaced it with a copy.
  req.context[ANSWERED_REPLY] = parentId
  return grandparentId ? { ...data, parent: grandparentId } : { ...data, parent: parentId }
}
