import type { CollectionBeforeChangeHook } from 'payload'

import { hasPermission } from '../src/access/permissions'

/**
 * On create, the owner field (author/owner) is the signed-in user. Only a
 * holder of `permission` may name someone else; on update the field-level
 * access rule already keeps everyone else from changing it.
 */
export const stampOwner =
  (field: string, permission: string): CollectionBeforeChangeHook =>
  async ({ data, operation, req }) => {
    if (operation !== 'create' || !req.user) return data
    const requested = data[field]
    if (requested && requested !== req.user.id && (await hasPermission(req, permission))) return data
    return { ...data, [field]: req.user.id }
  }
