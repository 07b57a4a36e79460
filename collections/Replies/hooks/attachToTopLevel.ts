import type { CollectionBeforeChangeHook } from 'payload'

import { relationId } from '../../../src/lib/relationId'

/**
 * Threads are one level deep: an answer to an answer is filed under the
 * top-level reply it belongs to (the `parent` field has already been checked
 * by its validation: same article, readable by the writer).
 */
export const attachToTopLevel: CollectionBeforeChangeHook = async ({ data, operation, req }) => {
  if (operation !== 'create') return data
  const parentId = relationId(data.parent)
  if (!parentId) return data
  const parent = await req.payload.findByID({ collection: 'replies', id: parentId, depth: 0, select: { parent: true }, overrideAccess: true, req })
  const grandparentId = relationId(parent.parent)
  return grandparentId ? { ...data, parent: grandparentId } : { ...data, parent: parentId }
}
