import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Daily view series per article: one row per article and day (in APP_TIMEZONE),
 * added to by the view counters' writers and the daily Redis sync, read by the
 * dashboard's per-article charts. Kept outside Payload's collections because it
 * is written in bulk by SQL and never edited by a person.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TABLE IF NOT EXISTS "article_view_days" (
      "article_id" integer NOT NULL REFERENCES "articles"("id") ON DELETE CASCADE,
      "day" date NOT NULL,
      "views" integer NOT NULL DEFAULT 0 CHECK ("views" >= 0),
      PRIMARY KEY ("article_id", "day")
    );
    CREATE INDEX IF NOT EXISTS "article_view_days_day_idx" ON "article_view_days" ("day");
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`DROP TABLE IF EXISTS "article_view_days";`)
}
