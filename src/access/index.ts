/**
 * Access rules read like sentences in collection configs:
 *   delete: ownsWithOr('articles.create', 'articles.delete.any')
 * Each returns `true`, `false`, or a query so the database does the filtering.
 */
import type { Access, FieldAccess, PayloadRequest, Where } from 'payload'

import { hasPermission } from './permissions'

export { hasPermission, permissionsOf } from './permissions'

type Args = { req: PayloadRequest }

export const anyone: Access = () => true
export const nobody: Access = () => false
export const signedIn: Access = ({ req }) => Boolean(req.user)

/** Holders of the permission. */
export const can =
  (permission: string): Access =>
  ({ req }) =>
    hasPermission(req, permission)

/** Public to read; created, edited and deleted by holders of one permission. */
export const publicReadManagedBy = (permission: string) => ({
  read: anyone,
  create: can(permission),
  update: can(permission),
  delete: can(permission),
})

/**
 * Holders of the permission see everything; others only rows whose `field` is
 * themselves. For reads, and for writes to personal rows anyone signed in may
 * make (follows, notifications, tokens, sign-in identities). Never for writes
 * to rows whose creation a role grants: use ownsWithOr there.
 */
export const ownsOr =
  (permission: string, field = 'author'): Access =>
  async ({ req }) => {
    if (!req.user) return false
    if (await hasPermission(req, permission)) return true
    return { [field]: { equals: req.user.id } } satisfies Where
  }

/**
 * Writes to rows a role lets one make: holders of `anyPermission` change any
 * row; holders of `ownPermission` (the one that let them create it) only rows
 * whose `field` is themselves. Ownership alone grants nothing: an author
 * demoted to reader no longer edits, publishes or deletes what they wrote, by
 * session, token, REST, GraphQL or the Local API.
 */
export const ownsWithOr =
  (ownPermission: string, anyPermission: string, field = 'author'): Access =>
  async ({ req }) => {
    if (!req.user) return false
    if (await hasPermission(req, anyPermission)) return true
    if (!(await hasPermission(req, ownPermission))) return false
    return { [field]: { equals: req.user.id } } satisfies Where
  }


/** Field-level: only holders of the permission may set or change the field. */
export const fieldCan =
  (permission: string): FieldAccess =>
  ({ req }: Args) =>
    hasPermission(req, permission)

/**
 * Field-level: the user themself, or a holder of the permission. The document
 * is known by `doc` on reads, but only by `id` when the admin works out a
 * form's permissions (Payload passes the form's data, which has no id), so
 * either names the user; without this the admin showed a user their own
 * e-mail as unreadable (empty) and refused every save of their account.
 */
export const fieldSelfOr =
  (permission: string): FieldAccess =>
  async ({ req, doc, id }) => {
    if (!req.user) return false
    const target = (doc as { id?: unknown } | undefined)?.id ?? id
    if (target !== undefined && target !== null && String(target) === String(req.user.id)) return true
    return hasPermission(req, permission)
  }
