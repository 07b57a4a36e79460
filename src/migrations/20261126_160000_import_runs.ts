import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Imports from the admin (src/plugins/import/admin, issue 30): an import
 * report is also the run of a queued import — its options, who asked, its
 * progress and its error — and the uploaded export waits in
 * `import_uploads` (bytes in the database, so a worker on another machine
 * reads it; deleted with its report). The permission `import.run`, granted to
 * the site owner (who holds every permission anyway). Frozen: it carries its
 * SQL and imports no live code.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  // A new enum value may not be used in the transaction that adds it: no default uses it here.
  await db.execute(sql`ALTER TYPE "public"."enum_import_reports_status" ADD VALUE IF NOT EXISTS 'queued' BEFORE 'running';`)
  await db.execute(sql`
    ALTER TABLE "import_reports" ADD COLUMN IF NOT EXISTS "site_owner" varchar;
    ALTER TABLE "import_reports" ADD COLUMN IF NOT EXISTS "pages_category" varchar;
    ALTER TABLE "import_reports" ADD COLUMN IF NOT EXISTS "site_url" varchar;
    ALTER TABLE "import_reports" ADD COLUMN IF NOT EXISTS "skip_media" boolean DEFAULT false;
    ALTER TABLE "import_reports" ADD COLUMN IF NOT EXISTS "file_size" numeric;
    ALTER TABLE "import_reports" ADD COLUMN IF NOT EXISTS "progress_done" numeric DEFAULT 0;
    ALTER TABLE "import_reports" ADD COLUMN IF NOT EXISTS "progress_total" numeric DEFAULT 0;
    ALTER TABLE "import_reports" ADD COLUMN IF NOT EXISTS "error" varchar;
    ALTER TABLE "import_reports" ADD COLUMN IF NOT EXISTS "requested_by_id" integer;
    ALTER TABLE "import_reports" ADD CONSTRAINT "import_reports_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
    CREATE INDEX IF NOT EXISTS "import_reports_requested_by_idx" ON "import_reports" USING btree ("requested_by_id");

    CREATE TABLE IF NOT EXISTS "import_uploads" (
      "report_id" integer PRIMARY KEY NOT NULL REFERENCES "public"."import_reports"("id") ON DELETE cascade,
      "bytes" bytea NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
    );

    INSERT INTO "permissions" ("slug", "label", "group")
      SELECT 'import.run', 'Import a WordPress or Ghost blog and read the import reports', 'admin'
      WHERE NOT EXISTS (SELECT 1 FROM "permissions" WHERE "slug" = 'import.run');
    INSERT INTO "roles_rels" ("order", "parent_id", "path", "permissions_id")
      SELECT COALESCE((SELECT max("order") FROM "roles_rels" rr WHERE rr."parent_id" = r."id"), 0) + 1, r."id", 'permissions', p."id"
        FROM "roles" r, "permissions" p
       WHERE r."slug" = 'site-owner' AND p."slug" = 'import.run'
         AND NOT EXISTS (SELECT 1 FROM "roles_rels" rr WHERE rr."parent_id" = r."id" AND rr."permissions_id" = p."id");
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  // Postgres cannot drop an enum value: 'queued' stays, unused.
  await db.execute(sql`
    DELETE FROM "permissions" WHERE "slug" = 'import.run';
    DROP TABLE IF EXISTS "import_uploads";
    ALTER TABLE "import_reports" DROP CONSTRAINT IF EXISTS "import_reports_requested_by_id_users_id_fk";
    DROP INDEX IF EXISTS "import_reports_requested_by_idx";
    ALTER TABLE "import_reports" DROP COLUMN IF EXISTS "requested_by_id";
    ALTER TABLE "import_reports" DROP COLUMN IF EXISTS "error";
    ALTER TABLE "import_reports" DROP COLUMN IF EXISTS "progress_total";
    ALTER TABLE "import_reports" DROP COLUMN IF EXISTS "progress_done";
    ALTER TABLE "import_reports" DROP COLUMN IF EXISTS "file_size";
    ALTER TABLE "import_reports" DROP COLUMN IF EXISTS "skip_media";
    ALTER TABLE "import_reports" DROP COLUMN IF EXISTS "site_url";
    ALTER TABLE "import_reports" DROP COLUMN IF EXISTS "pages_category";
    ALTER TABLE "import_reports" DROP COLUMN IF EXISTS "site_owner";
  `)
}
