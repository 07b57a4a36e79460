import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/** The user switcher's log (collections/UserSwitches): who switched to whom, and when. */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TYPE "public"."enum_user_switches_action" AS ENUM('switch', 'back');
    CREATE TABLE "user_switches" (
      "id" serial PRIMARY KEY NOT NULL,
      "actor_id" integer,
      "action" "enum_user_switches_action" NOT NULL,
      "target_id" integer,
      "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
    );
    ALTER TABLE "user_switches" ADD CONSTRAINT "user_switches_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
    ALTER TABLE "user_switches" ADD CONSTRAINT "user_switches_target_id_users_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
    CREATE INDEX "user_switches_actor_idx" ON "user_switches" USING btree ("actor_id");
    CREATE INDEX "user_switches_target_idx" ON "user_switches" USING btree ("target_id");
    CREATE INDEX "user_switches_updated_at_idx" ON "user_switches" USING btree ("updated_at");
    CREATE INDEX "user_switches_created_at_idx" ON "user_switches" USING btree ("created_at");
    ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "user_switches_id" integer;
    ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_user_switches_fk" FOREIGN KEY ("user_switches_id") REFERENCES "public"."user_switches"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX "payload_locked_documents_rels_user_switches_id_idx" ON "payload_locked_documents_rels" USING btree ("user_switches_id");
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    ALTER TABLE "payload_locked_documents_rels" DROP COLUMN IF EXISTS "user_switches_id";
    DROP TABLE IF EXISTS "user_switches";
    DROP TYPE IF EXISTS "public"."enum_user_switches_action";
  `)
}
