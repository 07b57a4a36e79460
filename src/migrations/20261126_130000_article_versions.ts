import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Versions and drafts of articles (src/plugins/drafts, issue 34): Payload's
 * `_status` column on articles, its versions tables (`_articles_v`, its
 * former-slugs array and its relationships), the columns Payload leaves
 * nullable when drafts may be saved unvalidated, and a first version of every
 * existing article (the history starts with what readers see today), with
 * `_status` taken from `status`; `editedBy` (who saved each version) starts
 * unknown. The schema part is what drizzle-kit
 * generates for the versions config (diffed from the config without it).
 * Frozen: it carries its SQL and imports no live code.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TYPE "public"."enum__articles_v_version_slug_origin" AS ENUM('automatic', 'translated', 'editor');
    CREATE TYPE "public"."enum__articles_v_version_format" AS ENUM('markdown', 'html');
    CREATE TYPE "public"."enum__articles_v_version_status" AS ENUM('draft', 'published');
    CREATE TABLE "_articles_v_version_former_slugs" (
    	"_order" integer NOT NULL,
    	"_parent_id" integer NOT NULL,
    	"id" serial PRIMARY KEY NOT NULL,
    	"slug" varchar,
    	"_uuid" varchar
    );

    CREATE TABLE "_articles_v" (
    	"id" serial PRIMARY KEY NOT NULL,
    	"parent_id" integer,
    	"version_title" varchar,
    	"version_slug" varchar,
    	"version_slug_origin" "enum__articles_v_version_slug_origin" DEFAULT 'automatic',
    	"version_format" "enum__articles_v_version_format",
    	"version_markdown" varchar,
    	"version_content" jsonb,
    	"version_html" varchar,
    	"version_excerpt" varchar,
    	"version_language" varchar,
    	"version_category_id" integer,
    	"version_author_id" integer,
    	"version_status" "enum__articles_v_version_status" DEFAULT 'draft',
    	"version_published_at" timestamp(3) with time zone,
    	"version_view_count" numeric DEFAULT 0,
    	"version_reply_count" numeric DEFAULT 0,
    	"version_last_reply_at" timestamp(3) with time zone,
    	"version_meta_title" varchar,
    	"version_meta_description" varchar,
    	"version_meta_image_id" integer,
    	"version_meta_keywords" varchar,
    	"version_updated_at" timestamp(3) with time zone,
    	"version_created_at" timestamp(3) with time zone,
    	"version__status" "enum__articles_v_version_status" DEFAULT 'draft',
    	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
    	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
    	"latest" boolean,
    	"autosave" boolean
    );

    CREATE TABLE "_articles_v_rels" (
    	"id" serial PRIMARY KEY NOT NULL,
    	"order" integer,
    	"parent_id" integer NOT NULL,
    	"path" varchar NOT NULL,
    	"tags_id" integer
    );

    ALTER TABLE "articles_former_slugs" ALTER COLUMN "slug" DROP NOT NULL;
    ALTER TABLE "articles" ALTER COLUMN "title" DROP NOT NULL;
    ALTER TABLE "articles" ALTER COLUMN "format" DROP NOT NULL;
    ALTER TABLE "articles" ALTER COLUMN "status" DROP NOT NULL;
    ALTER TABLE "articles" ADD COLUMN "_status" "enum_articles_status" DEFAULT 'draft';
    ALTER TABLE "articles" ADD COLUMN "edited_by_id" integer;
    ALTER TABLE "_articles_v" ADD COLUMN "version_edited_by_id" integer;
    ALTER TABLE "articles" ADD CONSTRAINT "articles_edited_by_id_users_id_fk" FOREIGN KEY ("edited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
    ALTER TABLE "_articles_v" ADD CONSTRAINT "_articles_v_version_edited_by_id_users_id_fk" FOREIGN KEY ("version_edited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
    CREATE INDEX "articles_edited_by_idx" ON "articles" USING btree ("edited_by_id");
    CREATE INDEX "_articles_v_version_version_edited_by_idx" ON "_articles_v" USING btree ("version_edited_by_id");
    ALTER TABLE "_articles_v_version_former_slugs" ADD CONSTRAINT "_articles_v_version_former_slugs_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_articles_v"("id") ON DELETE cascade ON UPDATE no action;
    ALTER TABLE "_articles_v" ADD CONSTRAINT "_articles_v_parent_id_articles_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."articles"("id") ON DELETE set null ON UPDATE no action;
    ALTER TABLE "_articles_v" ADD CONSTRAINT "_articles_v_version_category_id_categories_id_fk" FOREIGN KEY ("version_category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;
    ALTER TABLE "_articles_v" ADD CONSTRAINT "_articles_v_version_author_id_users_id_fk" FOREIGN KEY ("version_author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
    ALTER TABLE "_articles_v" ADD CONSTRAINT "_articles_v_version_meta_image_id_media_id_fk" FOREIGN KEY ("version_meta_image_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;
    ALTER TABLE "_articles_v_rels" ADD CONSTRAINT "_articles_v_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_articles_v"("id") ON DELETE cascade ON UPDATE no action;
    ALTER TABLE "_articles_v_rels" ADD CONSTRAINT "_articles_v_rels_tags_fk" FOREIGN KEY ("tags_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX "_articles_v_version_former_slugs_order_idx" ON "_articles_v_version_former_slugs" USING btree ("_order");
    CREATE INDEX "_articles_v_version_former_slugs_parent_id_idx" ON "_articles_v_version_former_slugs" USING btree ("_parent_id");
    CREATE INDEX "_articles_v_version_former_slugs_slug_idx" ON "_articles_v_version_former_slugs" USING btree ("slug");
    CREATE INDEX "_articles_v_parent_idx" ON "_articles_v" USING btree ("parent_id");
    CREATE INDEX "_articles_v_version_version_slug_idx" ON "_articles_v" USING btree ("version_slug");
    CREATE INDEX "_articles_v_version_version_category_idx" ON "_articles_v" USING btree ("version_category_id");
    CREATE INDEX "_articles_v_version_version_author_idx" ON "_articles_v" USING btree ("version_author_id");
    CREATE INDEX "_articles_v_version_version_status_idx" ON "_articles_v" USING btree ("version_status");
    CREATE INDEX "_articles_v_version_version_published_at_idx" ON "_articles_v" USING btree ("version_published_at");
    CREATE INDEX "_articles_v_version_version_last_reply_at_idx" ON "_articles_v" USING btree ("version_last_reply_at");
    CREATE INDEX "_articles_v_version_meta_version_meta_image_idx" ON "_articles_v" USING btree ("version_meta_image_id");
    CREATE INDEX "_articles_v_version_version_updated_at_idx" ON "_articles_v" USING btree ("version_updated_at");
    CREATE INDEX "_articles_v_version_version_created_at_idx" ON "_articles_v" USING btree ("version_created_at");
    CREATE INDEX "_articles_v_version_version__status_idx" ON "_articles_v" USING btree ("version__status");
    CREATE INDEX "_articles_v_created_at_idx" ON "_articles_v" USING btree ("created_at");
    CREATE INDEX "_articles_v_updated_at_idx" ON "_articles_v" USING btree ("updated_at");
    CREATE INDEX "_articles_v_latest_idx" ON "_articles_v" USING btree ("latest");
    CREATE INDEX "_articles_v_autosave_idx" ON "_articles_v" USING btree ("autosave");
    CREATE INDEX "version_status_version_publishedAt_idx" ON "_articles_v" USING btree ("version_status","version_published_at");
    CREATE INDEX "version_status_version_lastReplyAt_idx" ON "_articles_v" USING btree ("version_status","version_last_reply_at");
    CREATE INDEX "version_category_version_status_version_publishedAt_idx" ON "_articles_v" USING btree ("version_category_id","version_status","version_published_at");
    CREATE INDEX "version_author_version_status_version_publishedAt_idx" ON "_articles_v" USING btree ("version_author_id","version_status","version_published_at");
    CREATE INDEX "_articles_v_rels_order_idx" ON "_articles_v_rels" USING btree ("order");
    CREATE INDEX "_articles_v_rels_parent_idx" ON "_articles_v_rels" USING btree ("parent_id");
    CREATE INDEX "_articles_v_rels_path_idx" ON "_articles_v_rels" USING btree ("path");
    CREATE INDEX "_articles_v_rels_tags_id_idx" ON "_articles_v_rels" USING btree ("tags_id");
    CREATE INDEX "articles__status_idx" ON "articles" USING btree ("_status");
  `)
  // Backfill: `_status` from `status`, and one latest version per article (its tags and former slugs too).
  await db.execute(sql`
    UPDATE "articles" SET "_status" = "status"::text::"enum_articles_status" WHERE "_status" IS DISTINCT FROM "status";

    CREATE TEMPORARY TABLE "_articles_v_backfill" AS
      SELECT a.id AS article_id, nextval(pg_get_serial_sequence('_articles_v', 'id'))::integer AS version_id FROM "articles" a;

    INSERT INTO "_articles_v" (
      "id", "parent_id", "version_title", "version_slug", "version_slug_origin", "version_format", "version_markdown",
      "version_content", "version_html", "version_excerpt", "version_language", "version_category_id", "version_author_id",
      "version_status", "version_published_at", "version_view_count", "version_reply_count", "version_last_reply_at",
      "version_meta_title", "version_meta_description", "version_meta_image_id", "version_meta_keywords",
      "version_updated_at", "version_created_at", "version__status", "created_at", "updated_at", "latest", "autosave")
    SELECT b.version_id, a.id, a.title, a.slug, a.slug_origin::text::"enum__articles_v_version_slug_origin",
      a.format::text::"enum__articles_v_version_format", a.markdown, a.content, a.html, a.excerpt, a.language, a.category_id,
      a.author_id, a.status::text::"enum__articles_v_version_status", a.published_at, a.view_count, a.reply_count,
      a.last_reply_at, a.meta_title, a.meta_description, a.meta_image_id, a.meta_keywords, a.updated_at, a.created_at,
      a.status::text::"enum__articles_v_version_status", a.updated_at, a.updated_at, true, false
    FROM "articles" a JOIN "_articles_v_backfill" b ON b.article_id = a.id;

    INSERT INTO "_articles_v_rels" ("order", "parent_id", "path", "tags_id")
    SELECT r."order", b.version_id, r.path, r.tags_id FROM "articles_rels" r JOIN "_articles_v_backfill" b ON b.article_id = r.parent_id;

    INSERT INTO "_articles_v_version_former_slugs" ("_order", "_parent_id", "slug", "_uuid")
    SELECT f._order, b.version_id, f.slug, f.id FROM "articles_former_slugs" f JOIN "_articles_v_backfill" b ON b.article_id = f._parent_id;

    DROP TABLE "_articles_v_backfill";
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    DROP TABLE "_articles_v_version_former_slugs" CASCADE;
    DROP TABLE "_articles_v_rels" CASCADE;
    DROP TABLE "_articles_v" CASCADE;
    DROP INDEX IF EXISTS "articles__status_idx";
    ALTER TABLE "articles" DROP COLUMN "_status";
    ALTER TABLE "articles" DROP COLUMN "edited_by_id";
    UPDATE "articles" SET "title" = '' WHERE "title" IS NULL;
    UPDATE "articles" SET "format" = 'markdown' WHERE "format" IS NULL;
    UPDATE "articles" SET "status" = 'draft' WHERE "status" IS NULL;
    DELETE FROM "articles_former_slugs" WHERE "slug" IS NULL;
    ALTER TABLE "articles_former_slugs" ALTER COLUMN "slug" SET NOT NULL;
    ALTER TABLE "articles" ALTER COLUMN "title" SET NOT NULL;
    ALTER TABLE "articles" ALTER COLUMN "format" SET NOT NULL;
    ALTER TABLE "articles" ALTER COLUMN "status" SET NOT NULL;
    DROP TYPE "public"."enum__articles_v_version_slug_origin";
    DROP TYPE "public"."enum__articles_v_version_format";
    DROP TYPE "public"."enum__articles_v_version_status";
  `)
}
