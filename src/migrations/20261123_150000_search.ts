import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Full-text search of articles (src/lib/search.ts): a tsvector of title (A),
 * excerpt (B) and body text (C), written by the article hooks and by
 * `reindex-search`, with a GIN index. It is not a Payload field, so Payload
 * never selects it (its queries name their columns) nor writes it.
 *
 * Existing rows get title and excerpt here; `npm run blog -- reindex-search`
 * adds their bodies (segmenting Chinese needs the application).
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    ALTER TABLE "articles" ADD COLUMN IF NOT EXISTS "search_vector" tsvector;
    CREATE INDEX IF NOT EXISTS "articles_search_vector_idx" ON "articles" USING gin ("search_vector");
    UPDATE "articles"
       SET "search_vector" = setweight(to_tsvector('simple', coalesce("title", '')), 'A')
                          || setweight(to_tsvector('simple', coalesce("excerpt", '')), 'B')
     WHERE "search_vector" IS NULL;
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    DROP INDEX IF EXISTS "articles_search_vector_idx";
    ALTER TABLE "articles" DROP COLUMN IF EXISTS "search_vector";
  `)
}
