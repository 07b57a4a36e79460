import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Personal access tokens (collections/AccessTokens): the columns Payload's
 * schema expects, the public id unique (it finds the token), and a user's
 * tokens removed with the user.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TYPE "public"."enum_access_tokens_scope" AS ENUM('read', 'write');
    CREATE TABLE "access_tokens" (
      "id" serial PRIMARY KEY NOT NULL,
      "name" varchar NOT NULL,
      "scope" "enum_access_tokens_scope" DEFAULT 'read' NOT NULL,
      "expires_at" timestamp(3) with time zone,
      "user_id" integer,
      "public_id" varchar,
      "secret_hash" varchar,
      "last_used_at" timestamp(3) with time zone,
      "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
    );
    ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX "access_tokens_user_idx" ON "access_tokens" USING btree ("user_id");
    CREATE UNIQUE INDEX "access_tokens_public_id_idx" ON "access_tokens" USING btree ("public_id");
    CREATE INDEX "access_tokens_updated_at_idx" ON "access_tokens" USING btree ("updated_at");
    CREATE INDEX "access_tokens_created_at_idx" ON "access_tokens" USING btree ("created_at");
    ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "access_tokens_id" integer;
    ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_access_tokens_fk" FOREIGN KEY ("access_tokens_id") REFERENCES "public"."access_tokens"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX "payload_locked_documents_rels_access_tokens_id_idx" ON "payload_locked_documents_rels" USING btree ("access_tokens_id");
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    ALTER TABLE "payload_locked_documents_rels" DROP COLUMN IF EXISTS "access_tokens_id";
    DROP TABLE IF EXISTS "access_tokens";
    DROP TYPE IF EXISTS "public"."enum_access_tokens_scope";
  `)
}
