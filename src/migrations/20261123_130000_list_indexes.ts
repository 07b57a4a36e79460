import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * One composite index per list query of the reader site and the API, so each
 * page of a list is an index range scan in the order it is shown, however
 * large the tables grow (the same indexes are declared in the collections'
 * `indexes`):
 *   home            status + published_at            (and last_reply_at for "latest replies")
 *   category, user  category_id / author_id + status + published_at
 *   tag             articles_rels (tags_id, parent_id): the tag's articles, joined to the above
 *   replies         article_id + created_at (existing), author_id + created_at
 * The view count loses its index: it changes on every batch of views, and a
 * row update that touches no indexed column is a HOT update (in place, no
 * index writes); a fill factor of 90 leaves the page room those updates need.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE INDEX IF NOT EXISTS "status_published_at_idx" ON "articles" USING btree ("status", "published_at");
    CREATE INDEX IF NOT EXISTS "status_last_reply_at_idx" ON "articles" USING btree ("status", "last_reply_at");
    CREATE INDEX IF NOT EXISTS "category_id_status_published_at_idx" ON "articles" USING btree ("category_id", "status", "published_at");
    CREATE INDEX IF NOT EXISTS "author_id_status_published_at_idx" ON "articles" USING btree ("author_id", "status", "published_at");
    CREATE INDEX IF NOT EXISTS "articles_rels_tags_id_parent_idx" ON "articles_rels" USING btree ("tags_id", "parent_id");
    CREATE INDEX IF NOT EXISTS "author_id_created_at_idx" ON "replies" USING btree ("author_id", "created_at");
    DROP INDEX IF EXISTS "articles_view_count_idx";
    ALTER TABLE "articles" SET (fillfactor = 90);
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    DROP INDEX IF EXISTS "status_published_at_idx";
    DROP INDEX IF EXISTS "status_last_reply_at_idx";
    DROP INDEX IF EXISTS "category_id_status_published_at_idx";
    DROP INDEX IF EXISTS "author_id_status_published_at_idx";
    DROP INDEX IF EXISTS "articles_rels_tags_id_parent_idx";
    DROP INDEX IF EXISTS "author_id_created_at_idx";
    CREATE INDEX IF NOT EXISTS "articles_view_count_idx" ON "articles" USING btree ("view_count");
    ALTER TABLE "articles" RESET (fillfactor);
  `)
}
