import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Search ranking without the body (src/lib/search.ts): `rank_vector`, the
 * title (A) and excerpt (B) lexemes of each article's vector, as a stored
 * generated column kept inline (STORAGE MAIN). Ranking the newest matches reads
 * it instead of the whole vector, whose body part (kilobytes, in TOAST) was
 * detoasted for every ranked row; the GIN index still matches the whole vector.
 * Generated from `vector`, it needs no change to the writers (article hooks,
 * reindex-search) and is filled here for existing rows (the table is rewritten,
 * which also moves more of the large vectors out of the heap into TOAST).
 *
 * The GIN index loses `fastupdate`: with it, every search scans the unsorted
 * pending list of recent writes (up to 4 MB) until a vacuum merges it; articles
 * are written rarely and searched often, so writes pay instead.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    ALTER TABLE "article_search"
      ADD COLUMN IF NOT EXISTS "rank_vector" tsvector GENERATED ALWAYS AS (ts_filter("vector", '{a,b}')) STORED;
    ALTER TABLE "article_search" ALTER COLUMN "rank_vector" SET STORAGE MAIN;
    ALTER INDEX "article_search_vector_idx" SET (fastupdate = off);
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    ALTER INDEX "article_search_vector_idx" RESET (fastupdate);
    ALTER TABLE "article_search" DROP COLUMN IF EXISTS "rank_vector";
  `)
}
