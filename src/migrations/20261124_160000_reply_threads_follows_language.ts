import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Issue 16, the reader site:
 * - replies answer replies (`parent`, one level; a deleted parent leaves its answers as top-level replies);
 * - readers follow an article's replies by e-mail (`follows`, one row per article and reader,
 *   gone with either), and the notification kinds that brings;
 * - articles carry a language, defaulting to the site's (existing articles get the site's default).
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    ALTER TABLE "replies" ADD COLUMN IF NOT EXISTS "parent_id" integer;
    ALTER TABLE "replies" ADD CONSTRAINT "replies_parent_id_replies_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."replies"("id") ON DELETE set null ON UPDATE no action;
    CREATE INDEX IF NOT EXISTS "replies_parent_idx" ON "replies" USING btree ("parent_id");

    CREATE TABLE IF NOT EXISTS "follows" (
      "id" serial PRIMARY KEY NOT NULL,
      "article_id" integer NOT NULL,
      "follower_id" integer,
      "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
    );
    ALTER TABLE "follows" ADD CONSTRAINT "follows_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;
    ALTER TABLE "follows" ADD CONSTRAINT "follows_follower_id_users_id_fk" FOREIGN KEY ("follower_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX IF NOT EXISTS "follows_article_idx" ON "follows" USING btree ("article_id");
    CREATE INDEX IF NOT EXISTS "follows_follower_idx" ON "follows" USING btree ("follower_id");
    CREATE INDEX IF NOT EXISTS "follows_updated_at_idx" ON "follows" USING btree ("updated_at");
    CREATE INDEX IF NOT EXISTS "follows_created_at_idx" ON "follows" USING btree ("created_at");
    CREATE UNIQUE INDEX IF NOT EXISTS "article_id_follower_id_idx" ON "follows" USING btree ("article_id", "follower_id");

    ALTER TABLE "payload_locked_documents_rels" ADD COLUMN IF NOT EXISTS "follows_id" integer;
    ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_follows_fk" FOREIGN KEY ("follows_id") REFERENCES "public"."follows"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX IF NOT EXISTS "payload_locked_documents_rels_follows_id_idx" ON "payload_locked_documents_rels" USING btree ("follows_id");

    ALTER TYPE "public"."enum_notifications_kind" ADD VALUE IF NOT EXISTS 'answer';
    ALTER TYPE "public"."enum_notifications_kind" ADD VALUE IF NOT EXISTS 'followed';

    ALTER TABLE "site_settings" ADD COLUMN IF NOT EXISTS "default_language" varchar DEFAULT 'en';
    ALTER TABLE "articles" ADD COLUMN IF NOT EXISTS "language" varchar;
    UPDATE "articles" SET "language" = coalesce((SELECT "default_language" FROM "site_settings" LIMIT 1), 'en') WHERE "language" IS NULL;
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    ALTER TABLE "articles" DROP COLUMN IF EXISTS "language";
    ALTER TABLE "site_settings" DROP COLUMN IF EXISTS "default_language";
    DELETE FROM "notifications" WHERE "kind" IN ('answer', 'followed');
    ALTER TABLE "notifications" ALTER COLUMN "kind" DROP DEFAULT;
    ALTER TYPE "public"."enum_notifications_kind" RENAME TO "enum_notifications_kind_old";
    CREATE TYPE "public"."enum_notifications_kind" AS ENUM('reply');
    ALTER TABLE "notifications" ALTER COLUMN "kind" TYPE "public"."enum_notifications_kind" USING "kind"::text::"public"."enum_notifications_kind";
    ALTER TABLE "notifications" ALTER COLUMN "kind" SET DEFAULT 'reply';
    DROP TYPE "public"."enum_notifications_kind_old";
    ALTER TABLE "payload_locked_documents_rels" DROP COLUMN IF EXISTS "follows_id";
    DROP TABLE IF EXISTS "follows" CASCADE;
    ALTER TABLE "replies" DROP COLUMN IF EXISTS "parent_id";
  `)
}
