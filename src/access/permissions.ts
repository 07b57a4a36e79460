/**
 * Resolves what the signed-in user may do, from data: user → roles → permissions.
 * Read per request (memoised on the request), so a role edited in the admin
 * changes its users' rights on their next request, with no restart.
 */
import type { PayloadRequest } from 'payload'

import { SITE_OWNER } from './catalog'

export type PermissionSet = { owner: boolean; slugs: Set<string>; roles: Set<string> }

const EMPTY: PermissionSet = { owner: false, slugs: new Set(), roles: new Set() }
const CACHE_KEY = '__inkwellPermissions'

function idOf(value: unknown): number | string | undefined {
  if (value && typeof value === 'object' && 'id' in value) return (value as { id: number | string }).id
  if (typeof value === 'number' || typeof value === 'string') return value
  return undefined
}

type Cached = { userId: unknown; promise: Promise<PermissionSet> }

export async function permissionsOf(req: PayloadRequest): Promise<PermissionSet> {
  const user = req.user
  if (!user || user.collection !== 'users') return EMPTY
  const context = req.context as Record<string, unknown>
  const cached = context[CACHE_KEY] as Cached | undefined
  if (cached && cached.userId === user.id) return cached.promise
  const promise = loadPermissions(req, (user as { roles?: unknown[] }).roles ?? [])
  context[CACHE_KEY] = { userId: user.id, promise } satisfies Cached
  return promise
}

async function loadPermissions(req: PayloadRequest, roleRefs: unknown[]): Promise<PermissionSet> {
  const roleIds = roleRefs.map(idOf).filter((id) => id !== undefined)
  if (roleIds.length === 0) return EMPTY
  const { docs } = await req.payload.find({
    collection: 'roles',
    where: { id: { in: roleIds } },
    depth: 1,
    limit: roleIds.length,
    pagination: false,
    overrideAccess: true,
    req,
    select: { slug: true, permissions: true },
  })
  const slugs = new Set<string>()
  const roles = new Set<string>()
  for (const role of docs) {
    roles.add(role.slug)
    for (const permission of role.permissions ?? []) {
      if (permission && typeof permission === 'object') slugs.add(permission.slug)
    }
  }
  return { owner: roles.has(SITE_OWNER), slugs, roles }
}

export async function hasPermission(req: PayloadRequest, slug: string): Promise<boolean> {
  const set = await permissionsOf(req)
  return set.owner || set.slugs.has(slug)
}

