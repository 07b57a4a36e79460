/**
 * Public list reads are bounded: over REST and GraphQL a page holds at most
 * MAX_LIST_LIMIT documents (larger or zero limits are lowered to it) and
 * `pagination=false` is refused, so no request can make the server read a
 * whole table. Applied to every collection (src/plugins/listLimits.ts), as a
 * beforeOperation hook, so every external path obeys it. The Local API
 * (trusted server code: the reader site, jobs, scripts) is not capped, and
 * neither are editors in the admin (holders of `admin.access`).
 */
import { ValidationError, type CollectionBeforeOperationHook } from 'payload'

import { hasPermission } from '../src/access'

export const MAX_LIST_LIMIT = 100

type ListArgs = { limit?: number; pagination?: boolean; overrideAccess?: boolean }

export const capListLimit: CollectionBeforeOperationHook = async ({ args, operation, req, collection }) => {
  const list = args as ListArgs
  // Server code reading on a request's behalf (e.g. the permission lookup) passes overrideAccess and the request along.
  if (operation !== 'read' || req.payloadAPI === 'local' || list.overrideAccess) return args
  const unbounded = list.pagination === false
  const tooMany = list.limit !== undefined && (list.limit > MAX_LIST_LIMIT || list.limit <= 0)
  if (!unbounded && !tooMany) return args
  if (await hasPermission(req, 'admin.access')) return args
  if (unbounded) {
    throw new ValidationError({
      collection: collection.slug,
      errors: [{ path: 'pagination', message: `pagination=false is not available; read pages of at most ${MAX_LIST_LIMIT} with limit and page.` }],
    })
  }
  return { ...args, limit: MAX_LIST_LIMIT }
}
