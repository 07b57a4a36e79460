import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Uploads in an S3-compatible bucket (src/plugins/storage): the official adapter's
 * `prefix` and `_objectKey` fields on media, present with or without a bucket so one
 * schema fits both.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`ALTER TABLE "media" ADD COLUMN IF NOT EXISTS "prefix" varchar DEFAULT '';`)
  await db.execute(sql`ALTER TABLE "media" ADD COLUMN IF NOT EXISTS "_objectkey" varchar;`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`ALTER TABLE "media" DROP COLUMN IF EXISTS "_objectkey";`)
  await db.execute(sql`ALTER TABLE "media" DROP COLUMN IF EXISTS "prefix";`)
}
