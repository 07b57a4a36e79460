import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * The tables of the bookmarks example (./bookmarksPlugin.ts), as
 * `npm run migrate:create add-bookmarks` writes them once the plugin is in the
 * app's list (it is not: it lives here, so the test applies this by hand).
 * Frozen, like every migration: it imports no live code.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TABLE IF NOT EXISTS "bookmarks" (
      "id" serial PRIMARY KEY NOT NULL,
      "article_id" integer NOT NULL,
      "reader_id" integer,
      "note" varchar,
      "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
    );
    ALTER TABLE "bookmarks" ADD CONSTRAINT "bookmarks_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;
    ALTER TABLE "bookmarks" ADD CONSTRAINT "bookmarks_reader_id_users_id_fk" FOREIGN KEY ("reader_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX IF NOT EXISTS "bookmarks_article_idx" ON "bookmarks" USING btree ("article_id");
    CREATE INDEX IF NOT EXISTS "bookmarks_reader_idx" ON "bookmarks" USING btree ("reader_id");
    CREATE INDEX IF NOT EXISTS "bookmarks_updated_at_idx" ON "bookmarks" USING btree ("updated_at");
    CREATE INDEX IF NOT EXISTS "bookmarks_created_at_idx" ON "bookmarks" USING btree ("created_at");
    CREATE UNIQUE INDEX IF NOT EXISTS "article_id_reader_id_idx" ON "bookmarks" USING btree ("article_id", "reader_id");

    -- Payload's document locks refer to every collection.
    ALTER TABLE "payload_locked_documents_rels" ADD COLUMN IF NOT EXISTS "bookmarks_id" integer;
    ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_bookmarks_fk" FOREIGN KEY ("bookmarks_id") REFERENCES "public"."bookmarks"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX IF NOT EXISTS "payload_locked_documents_rels_bookmarks_id_idx" ON "payload_locked_documents_rels" USING btree ("bookmarks_id");

    ALTER TABLE "articles" ADD COLUMN IF NOT EXISTS "bookmark_count" numeric DEFAULT 0;
    -- Articles keep versions (src/plugins/drafts): every field has a column in "_articles_v" too.
    ALTER TABLE "_articles_v" ADD COLUMN IF NOT EXISTS "version_bookmark_count" numeric DEFAULT 0;
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    ALTER TABLE "articles" DROP COLUMN IF EXISTS "bookmark_count";
    ALTER TABLE "_articles_v" DROP COLUMN IF EXISTS "version_bookmark_count";
    ALTER TABLE "payload_locked_documents_rels" DROP COLUMN IF EXISTS "bookmarks_id";
    DROP TABLE IF EXISTS "bookmarks" CASCADE;
  `)
}
