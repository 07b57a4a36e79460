import type { CollectionBeforeOperationHook } from 'payload'
import { validateQueryPaths } from 'payload'

/**
 * Payload checks a sort path's field read access only when the whole path is
 * valid; a path that crosses a relationship into a hidden field (say
 * `sort=-author.lockUntil`) is marked invalid and then skipped, yet the
 * database still orders by it — an oracle for a field nobody may read. Each
 * sort path that crosses a relationship is validated like a `where` path, so
 * it answers 400 ("The following path cannot be queried") unless the client
 * may read every field along it.
 */
export const guardSortPaths: CollectionBeforeOperationHook = async ({ args, collection, req }) => {
  const { sort, overrideAccess } = args as { sort?: string | string[]; overrideAccess?: boolean }
  if (!sort || overrideAccess === true) return args
  const paths = (Array.isArray(sort) ? sort : String(sort).split(','))
    .map((p) => p.trim().replace(/^-/, '').replace(/__/g, '.'))
    .filter((p) => p.includes('.'))
  if (paths.length === 0) return args
  const where = Object.fromEntries(paths.map((p) => [p, { exists: true }]))
  await validateQueryPaths({ collectionConfig: collection, overrideAccess: false, req, where })
  return args
}
