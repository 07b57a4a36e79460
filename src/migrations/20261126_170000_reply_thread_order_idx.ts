import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * An article's page of threads (frontend/src/lib/api/replies.ts listThreads):
 * its top-level replies, oldest first. Payload asks for them with
 * `SELECT DISTINCT id, created_at … ORDER BY created_at LIMIT 20` (DISTINCT
 * because the public-reply rule joins the article), which sorts by
 * (created_at, id): no index gave that order for one article, so the planner
 * walked replies_created_at_idx across every reply of the site, filtering
 * on the article. With 10,000,000 replies and an article with 10,000 of them
 * (the newest, so its replies are at the far end) that was over 10 s. This
 * index gives one article's top-level replies in exactly that order: the
 * first page reads 20 entries. Declared here only: Payload's `indexes`
 * cannot express a partial index.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE INDEX IF NOT EXISTS "replies_thread_order_idx" ON "replies" ("article_id", "created_at", "id") WHERE "parent_id" IS NULL;
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`DROP INDEX IF EXISTS "replies_thread_order_idx";`)
}
