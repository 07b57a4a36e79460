import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/** Moderation with Akismet (src/plugins/moderation/akismet.ts): the visitor's address and browser a reply was checked with, to report a moderator's decision with the same facts. */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`ALTER TABLE "replies" ADD COLUMN IF NOT EXISTS "akismet_context" jsonb;`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`ALTER TABLE "replies" DROP COLUMN IF EXISTS "akismet_context";`)
}
