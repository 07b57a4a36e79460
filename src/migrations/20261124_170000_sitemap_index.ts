import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * The sitemap (frontend/src/lib/sitemap.ts) reads published articles by id in
 * keyset batches of id, slug and update time. Article rows are wide (HTML and
 * Markdown inline), so reading 50,000 of them walks ~100 MB of heap pages; this
 * partial covering index holds exactly what the sitemap selects (publish time
 * for the "not scheduled for later" condition), ~3 MB for 100,000 articles,
 * and answers the batches, the counts and the part offsets with index-only
 * scans. None of its columns changes when views are counted, so those row
 * updates stay HOT. Declared here only: Payload's `indexes` cannot express a
 * partial index with INCLUDE columns.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE INDEX IF NOT EXISTS "articles_sitemap_idx" ON "articles" ("id") INCLUDE ("published_at", "slug", "updated_at")
      WHERE "status" = 'published';
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`DROP INDEX IF EXISTS "articles_sitemap_idx";`)
}
