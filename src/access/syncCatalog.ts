import type { Payload, PayloadRequest } from 'payload'

import { DEFAULT_ROLES, PERMISSIONS } from './catalog'

/**
 * Adds the permissions and default roles that are missing, never touching
 * ones that exist: once seeded, the admin's edits are the truth. A later
 * migration that introduces a permission calls this again and lists which
 * roles should receive it in `grantNew`.
 */
export async function syncCatalog(
  payload: Payload,
  req?: Partial<PayloadRequest>,
  grantNew: Record<string, string[]> = {},
): Promise<void> {
  const existing = await payload.find({ collection: 'permissions', limit: 1000, pagination: false, depth: 0, req })
  const idBySlug = new Map(existing.docs.map((p) => [p.slug, p.id]))
  const added: string[] = []
  for (const permission of PERMISSIONS) {
    if (idBySlug.has(permission.slug)) continue
    const doc = await payload.create({ collection: 'permissions', data: permission, req })
    idBySlug.set(permission.slug, doc.id)
    added.push(permission.slug)
  }

  for (const role of DEFAULT_ROLES) {
    const found = await payload.find({ collection: 'roles', where: { slug: { equals: role.slug } }, limit: 1, depth: 0, req })
    const ids = role.permissions.map((slug) => idBySlug.get(slug)).filter((id): id is number => id !== undefined)
    if (!found.docs[0]) {
      await payload.create({
        collection: 'roles',
        data: { slug: role.slug, label: role.label, description: role.description, permissions: ids },
        req,
      })
      continue
    }
    const toGrant = (grantNew[role.slug] ?? []).filter((slug) => added.includes(slug))
    if (toGrant.length === 0) continue
    const current = (found.docs[0].permissions ?? []).map((p) => (typeof p === 'object' ? p.id : p))
    await payload.update({
      collection: 'roles',
      id: found.docs[0].id,
      data: { permissions: [...new Set([...current, ...toGrant.map((s) => idBySlug.get(s)!)])] },
      req,
    })
  }
}
