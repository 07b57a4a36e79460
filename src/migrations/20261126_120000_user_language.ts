import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/** Users choose their interface language (collections/Users: `language`, en or zh-CN; empty follows the browser). */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    DO $$ BEGIN
      CREATE TYPE "public"."enum_users_language" AS ENUM('en', 'zh-CN');
    EXCEPTION WHEN duplicate_object THEN null;
    END $$;
    ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "language" "public"."enum_users_language";
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    ALTER TABLE "users" DROP COLUMN IF EXISTS "language";
    DROP TYPE IF EXISTS "public"."enum_users_language";
  `)
}
