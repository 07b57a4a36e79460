/**
 * Resolves what the signed-in user may do, from data: user → roles → permissions.
 *
 * The user's roles are read with the user on every request (Payload's auth
 * strategy), so a role given or taken applies on the next request. What each
 * role holds is kept per process, because one signed-in page asks 20+ access
 * questions across its Local API calls, and each call has its own request
 * context: memoising on the context alone still cost a roles query per call
 * (~40 % of a signed-in render). The kept answers are dropped
 *  - at once in this process when a role or permission is written (the
 *    collections' hooks call `forgetRolePermissions` through the cache bus), and
 *    again in every web process when that write commits (pg_notify, src/lib/cacheBus);
 *  - after ROLE_CACHE_MS anyway, for processes that do not listen (workers, commands)
 *    and for rows changed behind Payload's back (raw SQL; a restore announces '*', which drops them too).
 * So a role edited in the admin changes its users' rights on their next request.
 */
import type { Payload, PayloadRequest } from 'payload'

import { onInvalidate, publishInvalidation } from '../lib/cacheBus'
import { processShared } from '../lib/processShared'
import { SITE_OWNER } from './catalog'

export type PermissionSet = { owner: boolean; slugs: Set<string>; roles: Set<string> }

const EMPTY: PermissionSet = { owner: false, slugs: new Set(), roles: new Set() }
const CACHE_KEY = '__inkwellPermissions'
/** The invalidation tag a role or permission write announces. */
export const ROLES_TAG = 'roles'
/** How long a process trusts what a set of roles holds without hearing of a change. */
export const ROLE_CACHE_MS = 5_000

function idOf(value: unknown): number | string | undefined {
  if (value && typeof value === 'object' && 'id' in value) return (value as { id: number | string }).id
  if (typeof value === 'number' || typeof value === 'string') return value
  return undefined
}

type Cached = { userId: unknown; promise: Promise<PermissionSet> }
type Kept = { at: number; promise: Promise<PermissionSet> }

/** Per Payload instance (tests run several, on different databases), what each set of role ids holds. */
const kept = processShared('rolePermissions', () => {
  const byPayload = new WeakMap<Payload, Map<string, Kept>>()
  const generations = { current: 0 }
  onInvalidate((tags) => {
    if (tags.includes(ROLES_TAG) || tags.includes('*')) generations.current++
  })
  return { byPayload, generations, seen: new WeakMap<Map<string, Kept>, number>() }
})

function keptFor(payload: Payload): Map<string, Kept> {
  let map = kept.byPayload.get(payload)
  if (!map) kept.byPayload.set(payload, (map = new Map()))
  // A change announced since this map was last read empties it.
  if (kept.seen.get(map) !== kept.generations.current) {
    map.clear()
    kept.seen.set(map, kept.generations.current)
  }
  return map
}

export async function permissionsOf(req: PayloadRequest): Promise<PermissionSet> {
  const user = req.user
  if (!user || user.collection !== 'users') return EMPTY
  const context = req.context as Record<string, unknown>
  const cached = context[CACHE_KEY] as Cached | undefined
  if (cached && cached.userId === user.id) return cached.promise
  const promise = rolePermissions(req, (user as { roles?: unknown[] }).roles ?? [])
  context[CACHE_KEY] = { userId: user.id, promise } satisfies Cached
  return promise
}

function rolePermissions(req: PayloadRequest, roleRefs: unknown[]): Promise<PermissionSet> {
  const roleIds = roleRefs.map(idOf).filter((id) => id !== undefined)
  if (roleIds.length === 0) return Promise.resolve(EMPTY)
  // Inside a write's transaction the roles may be uncommitted (a seed, a migration): read them there, keep nothing.
  if (req.transactionID) return loadPermissions(req, roleIds)
  const key = roleIds.map(String).sort().join(',')
  const map = keptFor(req.payload)
  const hit = map.get(key)
  if (hit && Date.now() - hit.at < ROLE_CACHE_MS) return hit.promise
  const promise = loadPermissions(req, roleIds)
  const entry: Kept = { at: Date.now(), promise }
  map.set(key, entry)
  // A failed read (the database away) is not kept: the next question asks again.
  promise.catch(() => {
    if (map.get(key) === entry) map.delete(key)
  })
  return promise
}

async function loadPermissions(req: PayloadRequest, roleIds: Array<number | string>): Promise<PermissionSet> {
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

/**
 * For the Roles and Permissions collections' afterChange and afterDelete hooks: what
 * roles hold is read again, here at once and in every web process once the write commits.
 */
export async function forgetRolePermissions({ req }: { req: PayloadRequest }): Promise<void> {
  await publishInvalidation(req, [ROLES_TAG])
}
