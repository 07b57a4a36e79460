import type { Access, PayloadRequest, Where } from 'payload'

import { permissionsOf } from '../../src/access'
import type { PermissionSet } from '../../src/access/permissions'
import { SITE_OWNER } from '../../src/access/catalog'

/** Roles holding something the manager lacks (the site-owner role holds everything). */
async function rolesBeyond(req: PayloadRequest, mine: PermissionSet): Promise<number[]> {
  const { docs } = await req.payload.find({
    collection: 'roles',
    depth: 1,
    pagination: false,
    overrideAccess: true,
    req,
    select: { slug: true, permissions: true },
  })
  return docs
    .filter(
      (role) =>
        role.slug === SITE_OWNER ||
        (role.permissions ?? []).some((p) => p && typeof p === 'object' && !mine.slugs.has(p.slug)),
    )
    .map((role) => role.id)
}

async function usersHolding(req: PayloadRequest, roleIds: number[]): Promise<number[]> {
  if (roleIds.length === 0) return []
  const { docs } = await req.payload.find({
    collection: 'users',
    where: { roles: { in: roleIds } },
    depth: 0,
    pagination: false,
    overrideAccess: true,
    req,
    select: {},
  })
  return docs.map((user) => user.id)
}

/**
 * Whom a `users.manage` holder may change or delete: users who hold no role
 * with a permission the manager lacks. So an administrator manages readers
 * and authors but not the site owner. Returned as a query, so lists, single
 * updates and bulk updates are all filtered by the database alike.
 */
async function lesserUsers(req: PayloadRequest, mine: PermissionSet): Promise<Where | true> {
  if (mine.owner) return true
  const beyond = await usersHolding(req, await rolesBeyond(req, mine))
  return beyond.length ? { id: { not_in: beyond } } : true
}

/** Users may update themselves; `users.manage` holders may update users who hold nothing they lack. */
export const selfOrManagerOfLesser: Access = async ({ req }) => {
  if (!req.user || req.user.collection !== 'users') return false
  const mine = await permissionsOf(req)
  const self: Where = { id: { equals: req.user.id } }
  if (!mine.owner && !mine.slugs.has('users.manage')) return self
  const lesser = await lesserUsers(req, mine)
  return lesser === true ? true : { or: [self, lesser] }
}

/** Deleting and unlocking: only `users.manage` holders, and only users who hold nothing they lack. */
export const managerOfLesser: Access = async ({ req }) => {
  if (!req.user || req.user.collection !== 'users') return false
  const mine = await permissionsOf(req)
  if (!mine.owner && !mine.slugs.has('users.manage')) return false
  return lesserUsers(req, mine)
}
