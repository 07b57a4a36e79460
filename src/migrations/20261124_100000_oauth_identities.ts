import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Sign-in through identity providers (src/plugins/oauth):
 *  - `oauth_identities`, the oauth-identities collection: one row per account at a
 *    provider, linked to one user; (provider, subject) is unique, so an identity
 *    can never belong to two users. It replaces the unused users.oauthIdentities
 *    array, whose rows could not carry that rule across users.
 *  - `oauth_sign_in_attempts`, outside Payload: the server-side half of a sign-in
 *    in flight (state, PKCE verifier, nonce, where to go next), bound to the
 *    browser by the hash of a random cookie value and deleted by its first use.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TABLE IF NOT EXISTS "oauth_identities" (
      "id" serial PRIMARY KEY NOT NULL,
      "user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
      "provider" varchar NOT NULL,
      "subject" varchar NOT NULL,
      "email" varchar,
      "email_verified" boolean DEFAULT false,
      "name" varchar,
      "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
    );
    CREATE INDEX IF NOT EXISTS "oauth_identities_user_idx" ON "oauth_identities" USING btree ("user_id");
    CREATE INDEX IF NOT EXISTS "oauth_identities_updated_at_idx" ON "oauth_identities" USING btree ("updated_at");
    CREATE INDEX IF NOT EXISTS "oauth_identities_created_at_idx" ON "oauth_identities" USING btree ("created_at");
    CREATE UNIQUE INDEX IF NOT EXISTS "provider_subject_idx" ON "oauth_identities" USING btree ("provider", "subject");

    ALTER TABLE "payload_locked_documents_rels" ADD COLUMN IF NOT EXISTS "oauth_identities_id" integer;
    ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_oauth_identities_fk"
      FOREIGN KEY ("oauth_identities_id") REFERENCES "public"."oauth_identities"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX IF NOT EXISTS "payload_locked_documents_rels_oauth_identities_id_idx" ON "payload_locked_documents_rels" USING btree ("oauth_identities_id");

    DROP TABLE IF EXISTS "users_oauth_identities" CASCADE;

    CREATE TABLE IF NOT EXISTS "oauth_sign_in_attempts" (
      "state" varchar PRIMARY KEY NOT NULL,
      "provider" varchar NOT NULL,
      "browser_hash" varchar NOT NULL,
      "code_verifier" varchar,
      "nonce" varchar,
      "next_path" varchar NOT NULL DEFAULT '/',
      "link_user_id" integer REFERENCES "users"("id") ON DELETE CASCADE,
      "expires_at" timestamp(3) with time zone NOT NULL
    );
    CREATE INDEX IF NOT EXISTS "oauth_sign_in_attempts_expires_at_idx" ON "oauth_sign_in_attempts" ("expires_at");
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    DROP TABLE IF EXISTS "oauth_sign_in_attempts";
    ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT IF EXISTS "payload_locked_documents_rels_oauth_identities_fk";
    ALTER TABLE "payload_locked_documents_rels" DROP COLUMN IF EXISTS "oauth_identities_id";
    DROP TABLE IF EXISTS "oauth_identities";
    CREATE TABLE IF NOT EXISTS "users_oauth_identities" (
      "_order" integer NOT NULL,
      "_parent_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
      "id" varchar PRIMARY KEY NOT NULL,
      "provider" varchar NOT NULL,
      "subject" varchar NOT NULL,
      "linked_at" timestamp(3) with time zone
    );
    CREATE INDEX IF NOT EXISTS "users_oauth_identities_order_idx" ON "users_oauth_identities" USING btree ("_order");
    CREATE INDEX IF NOT EXISTS "users_oauth_identities_parent_id_idx" ON "users_oauth_identities" USING btree ("_parent_id");
    CREATE INDEX IF NOT EXISTS "users_oauth_identities_provider_idx" ON "users_oauth_identities" USING btree ("provider");
    CREATE INDEX IF NOT EXISTS "users_oauth_identities_subject_idx" ON "users_oauth_identities" USING btree ("subject");
  `)
}
