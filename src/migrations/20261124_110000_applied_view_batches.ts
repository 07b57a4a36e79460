import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Ids of view batches already added to the counts (src/plugins/activity/views.ts): a
 * batch retried after a timeout, or a view sync rerun after a crash, finds
 * its id here and adds nothing. Pruned after a week by the daily view sync.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TABLE IF NOT EXISTS "applied_view_batches" (
      "id" text PRIMARY KEY,
      "applied_at" timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX IF NOT EXISTS "applied_view_batches_applied_at_idx" ON "applied_view_batches" ("applied_at");
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`DROP TABLE IF EXISTS "applied_view_batches";`)
}
