import type { Access } from 'payload'

import { hasPermission } from '../../src/access'

/** Users may update themselves; `users.manage` holders may update anyone. */
export const selfOrManager: Access = async ({ req }) => {
  if (!req.user) return false
  if (await hasPermission(req, 'users.manage')) return true
  return { id: { equals: req.user.id } }
}
