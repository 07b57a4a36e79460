import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Full-text search of articles (src/lib/search.ts): a narrow table beside
 * `articles`, one row per article with its status, publish time and a tsvector
 * of title (A), excerpt (B) and body text (C), with a GIN index. Matching and
 * ranking read only this table, never the wide article rows (HTML, Markdown,
 * JSON content). It is written by the article hooks inside the saving
 * transaction and by `reindex-search`; it is not a Payload collection, so
 * Payload never reads or writes it. Deleting an article deletes its row.
 *
 * Existing rows get title and excerpt here; `npm run blog -- reindex-search`
 * adds their bodies (segmenting Chinese needs the application).
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TABLE IF NOT EXISTS "article_search" (
      "article_id" integer PRIMARY KEY NOT NULL REFERENCES "articles"("id") ON DELETE CASCADE,
      "status" "enum_articles_status" NOT NULL,
      "published_at" timestamp(3) with time zone,
      "vector" tsvector NOT NULL
    );
    CREATE INDEX IF NOT EXISTS "article_search_vector_idx" ON "article_search" USING gin ("vector");
    CREATE INDEX IF NOT EXISTS "article_search_published_idx" ON "article_search" ("published_at" DESC) WHERE "status" = 'published';
    INSERT INTO "article_search" ("article_id", "status", "published_at", "vector")
    SELECT "id", "status", "published_at",
           setweight(to_tsvector('simple', coalesce("title", '')), 'A')
        || setweight(to_tsvector('simple', coalesce("excerpt", '')), 'B')
      FROM "articles"
    ON CONFLICT ("article_id") DO NOTHING;
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    DROP TABLE IF EXISTS "article_search";
  `)
}
