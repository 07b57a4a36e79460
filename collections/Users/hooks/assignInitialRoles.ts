import type { CollectionBeforeChangeHook, PayloadRequest } from 'payload'

import { ADMINISTRATOR, READER, SITE_OWNER } from '../../../src/access/catalog'
import { hasPermission } from '../../../src/access/permissions'
import { lockTransaction } from '../../../hooks/lockTransaction'

/**
 * The first user ever becomes site owner, the second administrator, later
 * ones get the default role from site settings. An advisory lock held until
 * the transaction ends makes concurrent registrations take turns, so two
 * simultaneous first registrations can't both become site owner.
 */
export const assignInitialRoles: CollectionBeforeChangeHook = async ({ data, operation, req }) => {
  if (operation !== 'create') return data
  await lockTransaction(req, 'inkwell:users:first-registrations')
  const { totalDocs } = await req.payload.count({ collection: 'users', overrideAccess: true, req })

  if (totalDocs === 0) return { ...data, roles: [await roleId(req, SITE_OWNER)] }
  const chosenByManager =
    Array.isArray(data.roles) && data.roles.length > 0 && req.user && (await hasPermission(req, 'roles.manage'))
  if (chosenByManager) return data
  if (totalDocs === 1) return { ...data, roles: [await roleId(req, ADMINISTRATOR)] }
  return { ...data, roles: [await defaultRoleId(req)] }
}

async function roleId(req: PayloadRequest, slug: string): Promise<number> {
  const { docs } = await req.payload.find({
    collection: 'roles',
    where: { slug: { equals: slug } },
    limit: 1,
    depth: 0,
    overrideAccess: true,
    req,
    select: {},
  })
  if (!docs[0]) throw new Error(`The "${slug}" role is missing: run the migrations (npm run migrate).`)
  return docs[0].id
}

async function defaultRoleId(req: PayloadRequest): Promise<number> {
  const settings = await req.payload.findGlobal({ slug: 'site-settings', depth: 0, overrideAccess: true, req })
  const configured = settings?.defaultRole
  if (typeof configured === 'number') return configured
  if (configured && typeof configured === 'object') return configured.id
  return roleId(req, READER)
}
