import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * The reader site's lists since drafts (article versions) ask for
 * `status = 'published' AND _status = 'published'` (the drafts plugin's read
 * rule), which articles_public_order_idx (status only) does not cover: at
 * 1,000,000 articles every list's total (Payload's count for the pagination)
 * and every deep page visited each wide article row for `_status`: the home's
 * count was a parallel scan of the whole 1.8 GB table (~2 s). These partial
 * indexes carry both conditions, so counts and pages of ids are index-only
 * walks (the visibility map kept by autovacuum): the home's whole list, and a
 * category's or an author's from its first key. None of their columns
 * changes when views are counted, so those updates stay HOT. Declared here
 * only: Payload's `indexes` cannot express a partial index.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE INDEX IF NOT EXISTS "articles_live_order_idx" ON "articles" ("published_at", "created_at", "id")
      WHERE "status" = 'published' AND "_status" = 'published';
    CREATE INDEX IF NOT EXISTS "articles_live_category_order_idx" ON "articles" ("category_id", "published_at", "created_at", "id")
      WHERE "status" = 'published' AND "_status" = 'published';
    CREATE INDEX IF NOT EXISTS "articles_live_author_order_idx" ON "articles" ("author_id", "published_at", "created_at", "id")
      WHERE "status" = 'published' AND "_status" = 'published';
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    DROP INDEX IF EXISTS "articles_live_order_idx";
    DROP INDEX IF EXISTS "articles_live_category_order_idx";
    DROP INDEX IF EXISTS "articles_live_author_order_idx";
  `)
}
