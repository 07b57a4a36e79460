import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/** The user-switches log also records what the owner did while switched (collections/UserSwitches: action `act`, operation, subject). */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    ALTER TYPE "public"."enum_user_switches_action" ADD VALUE IF NOT EXISTS 'act';
    ALTER TABLE "user_switches" ADD COLUMN IF NOT EXISTS "operation" varchar;
    ALTER TABLE "user_switches" ADD COLUMN IF NOT EXISTS "subject" varchar;
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    DELETE FROM "user_switches" WHERE "action" = 'act';
    ALTER TABLE "user_switches" DROP COLUMN IF EXISTS "operation";
    ALTER TABLE "user_switches" DROP COLUMN IF EXISTS "subject";
    ALTER TYPE "public"."enum_user_switches_action" RENAME TO "enum_user_switches_action_old";
    CREATE TYPE "public"."enum_user_switches_action" AS ENUM('switch', 'back');
    ALTER TABLE "user_switches" ALTER COLUMN "action" TYPE "public"."enum_user_switches_action" USING "action"::text::"public"."enum_user_switches_action";
    DROP TYPE "public"."enum_user_switches_action_old";
  `)
}
