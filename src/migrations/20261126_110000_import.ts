import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Moving in (src/plugins/import, issue 30): the official redirects plugin's
 * collection (old addresses answering 301), the import reports, the
 * legacy-id map that makes a re-import change nothing (`import_sources`, raw,
 * read and written through the SQL helper), and the name an imported comment
 * was signed with (`replies.guest_name`). Frozen: it carries its SQL and
 * imports no live code.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TYPE "public"."enum_redirects_to_type" AS ENUM('reference', 'custom');
    CREATE TABLE "redirects" (
      "id" serial PRIMARY KEY NOT NULL,
      "from" varchar NOT NULL,
      "to_type" "enum_redirects_to_type" DEFAULT 'reference',
      "to_url" varchar,
      "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
    );
    CREATE UNIQUE INDEX "redirects_from_idx" ON "redirects" USING btree ("from");
    CREATE INDEX "redirects_updated_at_idx" ON "redirects" USING btree ("updated_at");
    CREATE INDEX "redirects_created_at_idx" ON "redirects" USING btree ("created_at");
    CREATE TABLE "redirects_rels" (
      "id" serial PRIMARY KEY NOT NULL,
      "order" integer,
      "parent_id" integer NOT NULL,
      "path" varchar NOT NULL,
      "articles_id" integer
    );
    ALTER TABLE "redirects_rels" ADD CONSTRAINT "redirects_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."redirects"("id") ON DELETE cascade ON UPDATE no action;
    ALTER TABLE "redirects_rels" ADD CONSTRAINT "redirects_rels_articles_fk" FOREIGN KEY ("articles_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX "redirects_rels_order_idx" ON "redirects_rels" USING btree ("order");
    CREATE INDEX "redirects_rels_parent_idx" ON "redirects_rels" USING btree ("parent_id");
    CREATE INDEX "redirects_rels_path_idx" ON "redirects_rels" USING btree ("path");
    CREATE INDEX "redirects_rels_articles_id_idx" ON "redirects_rels" USING btree ("articles_id");

    CREATE TYPE "public"."enum_import_reports_source" AS ENUM('wordpress', 'ghost', 'inkwell');
    CREATE TYPE "public"."enum_import_reports_status" AS ENUM('running', 'done', 'failed');
    CREATE TABLE "import_reports" (
      "id" serial PRIMARY KEY NOT NULL,
      "file" varchar NOT NULL,
      "source" "enum_import_reports_source" NOT NULL,
      "status" "enum_import_reports_status" DEFAULT 'running' NOT NULL,
      "dry_run" boolean DEFAULT false,
      "summary" varchar,
      "report" jsonb,
      "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
    );
    CREATE INDEX "import_reports_updated_at_idx" ON "import_reports" USING btree ("updated_at");
    CREATE INDEX "import_reports_created_at_idx" ON "import_reports" USING btree ("created_at");

    ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "redirects_id" integer;
    ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "import_reports_id" integer;
    ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_redirects_fk" FOREIGN KEY ("redirects_id") REFERENCES "public"."redirects"("id") ON DELETE cascade ON UPDATE no action;
    ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_import_reports_fk" FOREIGN KEY ("import_reports_id") REFERENCES "public"."import_reports"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX "payload_locked_documents_rels_redirects_id_idx" ON "payload_locked_documents_rels" USING btree ("redirects_id");
    CREATE INDEX "payload_locked_documents_rels_import_reports_id_idx" ON "payload_locked_documents_rels" USING btree ("import_reports_id");

    ALTER TABLE "replies" ADD COLUMN "guest_name" varchar;

    -- Old id → new id, per source site: a re-import finds what it already brought.
    CREATE TABLE "import_sources" (
      "source" varchar NOT NULL,
      "site" varchar NOT NULL,
      "kind" varchar NOT NULL,
      "legacy_id" varchar NOT NULL,
      "target_id" integer NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
      PRIMARY KEY ("source", "site", "kind", "legacy_id")
    );
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    DROP TABLE IF EXISTS "import_sources";
    ALTER TABLE "replies" DROP COLUMN IF EXISTS "guest_name";
    ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT IF EXISTS "payload_locked_documents_rels_import_reports_fk";
    ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT IF EXISTS "payload_locked_documents_rels_redirects_fk";
    DROP INDEX IF EXISTS "payload_locked_documents_rels_import_reports_id_idx";
    DROP INDEX IF EXISTS "payload_locked_documents_rels_redirects_id_idx";
    ALTER TABLE "payload_locked_documents_rels" DROP COLUMN IF EXISTS "import_reports_id";
    ALTER TABLE "payload_locked_documents_rels" DROP COLUMN IF EXISTS "redirects_id";
    DROP TABLE IF EXISTS "import_reports";
    DROP TYPE IF EXISTS "public"."enum_import_reports_status";
    DROP TYPE IF EXISTS "public"."enum_import_reports_source";
    DROP TABLE IF EXISTS "redirects_rels";
    DROP TABLE IF EXISTS "redirects";
    DROP TYPE IF EXISTS "public"."enum_redirects_to_type";
  `)
}
