import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-postgres'

import { syncCatalog } from '../access/syncCatalog'

/** Seeds the permission catalog and the four built-in roles. */
export async function up({ payload, req }: MigrateUpArgs): Promise<void> {
  await syncCatalog(payload, req)
}

export async function down({ payload, req }: MigrateDownArgs): Promise<void> {
  await payload.delete({ collection: 'roles', where: { id: { exists: true } }, req })
  await payload.delete({ collection: 'permissions', where: { id: { exists: true } }, req })
}
