import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * The counts beside an article's page of threads (Payload's pagination total
 * and the reply count, frontend/src/lib/api/replies.ts listThreads): Payload
 * counts with `SELECT COUNT(1) OVER () … GROUP BY replies.id LIMIT 1`.
 * PostgreSQL 15 prices that LIMIT as if the window could stop after one row,
 * so it chose the only index already ordered by id, the primary key, and
 * walked all 10,000,000 replies filtering on the article (2.0–2.3 s for an
 * article with 10,000 replies). With one article's replies in id order here,
 * the same plan shape reads only that article's entries.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE INDEX IF NOT EXISTS "replies_article_id_order_idx" ON "replies" ("article_id", "id");
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`DROP INDEX IF EXISTS "replies_article_id_order_idx";`)
}
