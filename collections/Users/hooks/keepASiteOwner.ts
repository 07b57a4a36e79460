import { APIError, type CollectionBeforeChangeHook, type CollectionBeforeDeleteHook, type PayloadRequest } from 'payload'

import { SITE_OWNER } from '../../../src/access/catalog'
import { validationTranslator } from '../../../src/lib/i18n/request'

/** A site must always keep at least one site owner, or nobody could manage roles again. */
async function otherOwners(req: PayloadRequest, exceptUserId: number | string): Promise<number> {
  const owner = await req.payload.find({
    collection: 'roles',
    where: { slug: { equals: SITE_OWNER } },
    limit: 1,
    depth: 0,
    overrideAccess: true,
    req,
    select: {},
  })
  const ownerRole = owner.docs[0]
  if (!ownerRole) return 0
  const { totalDocs } = await req.payload.count({
    collection: 'users',
    where: { and: [{ roles: { in: [ownerRole.id] } }, { id: { not_equals: exceptUserId } }] },
    overrideAccess: true,
    req,
  })
  return totalDocs
}

async function isOwnerRole(req: PayloadRequest, roleRefs: unknown): Promise<boolean> {
  const ids = (Array.isArray(roleRefs) ? roleRefs : []).map((r) => (r && typeof r === 'object' ? (r as { id: number }).id : r))
  if (ids.length === 0) return false
  const { totalDocs } = await req.payload.count({
    collection: 'roles',
    where: { and: [{ id: { in: ids } }, { slug: { equals: SITE_OWNER } }] },
    overrideAccess: true,
    req,
  })
  return totalDocs > 0
}

export const keepASiteOwnerOnUpdate: CollectionBeforeChangeHook = async ({ data, operation, originalDoc, req }) => {
  if (operation !== 'update' || !originalDoc || !('roles' in data)) return data
  const wasOwner = await isOwnerRole(req, originalDoc.roles)
  if (!wasOwner || (await isOwnerRole(req, data.roles))) return data
  if ((await otherOwners(req, originalDoc.id)) === 0) {
    throw new APIError(validationTranslator(req)('error.siteOwner.keepRole'), 400, undefined, true)
  }
  return data
}

export const keepASiteOwnerOnDelete: CollectionBeforeDeleteHook = async ({ id, req }) => {
  const user = await req.payload.findByID({ collection: 'users', id, depth: 0, overrideAccess: true, req })
  if ((await isOwnerRole(req, user?.roles)) && (await otherOwners(req, id)) === 0) {
    throw new APIError(validationTranslator(req)('error.siteOwner.keepUser'), 400, undefined, true)
  }
}
