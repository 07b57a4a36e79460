/**
 * Public list reads are bounded: over REST and GraphQL a page holds at most
 * MAX_LIST_LIMIT documents (larger or zero limits are lowered to it) and
 * `pagination=false` without such a limit is refused, so no request can make the server read a
 * whole table. Applied to every collection (src/plugins/listLimits), as a
 * beforeOperation hook, so every external path obeys it. The Local API
 * (trusted server code: the reader site, jobs, scripts) is not capped, and
 * neither are editors in the admin (holders of `admin.access`).
 */
import { ValidationError, type CollectionBeforeOperationHook } from 'payload'

import { hasPermission } from '../src/access'
import { validationTranslator } from '../src/lib/i18n/request'

export const MAX_LIST_LIMIT = 100

type ListArgs = { limit?: number; pagination?: boolean; overrideAccess?: boolean; currentDepth?: number; disableErrors?: boolean }

/**
 * Only the request's own list is capped. Reads made while answering it carry
 * the request along but are not the caller's to size: server code passing
 * overrideAccess (the permission lookup), Payload populating relationships
 * (its batches, at a depth, hold exactly the ids of the page's documents; GraphQL's
 * relationship dataloader batches at no depth, marked by `disableErrors`, which no
 * client can set) and
 * Payload's own bookkeeping collections (document locks, preferences).
 */
function isCallersList(list: ListArgs, slug: string): boolean {
  return !list.overrideAccess && !list.currentDepth && !list.disableErrors && !slug.startsWith('payload-')
}

export const capListLimit: CollectionBeforeOperationHook = async ({ args, operation, req, collection }) => {
  const list = args as ListArgs
  if (operation !== 'read' || req.payloadAPI === 'local' || !isCallersList(list, collection.slug)) return args
  const tooMany = list.limit !== undefined && (list.limit > MAX_LIST_LIMIT || list.limit <= 0)
  // pagination=false only skips the count; with a limit of 1..MAX it is still one bounded page
  // (the S3 adapter looks up a file's document that way while serving it).
  const unbounded = list.pagination === false && (list.limit === undefined || tooMany)
  if (!unbounded && !tooMany) return args
  if (await hasPermission(req, 'admin.access')) return args
  if (unbounded) {
    throw new ValidationError({
      collection: collection.slug,
      errors: [{ path: 'pagination', message: validationTranslator(req)('error.listLimit.unpaginated', { max: MAX_LIST_LIMIT }) }],
    })
  }
  return { ...args, limit: MAX_LIST_LIMIT }
}
