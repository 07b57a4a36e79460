import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Webhooks (src/plugins/webhooks): the hooks (collections/Webhooks), their
 * delivery log and outbox (collections/WebhookDeliveries: a hook's deliveries
 * go with it), and the permission `webhooks.manage`, granted to the site owner
 * (who holds every permission anyway). Frozen: it carries its SQL and imports
 * no live code.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TABLE "webhooks" (
      "id" serial PRIMARY KEY NOT NULL,
      "url" varchar NOT NULL,
      "events" jsonb NOT NULL,
      "description" varchar,
      "enabled" boolean DEFAULT true,
      "owner_id" integer,
      "secret" varchar,
      "previous_secret" varchar,
      "previous_secret_until" timestamp(3) with time zone,
      "failing_since" timestamp(3) with time zone,
      "disabled_reason" varchar,
      "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
    );
    ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
    CREATE INDEX "webhooks_owner_idx" ON "webhooks" USING btree ("owner_id");
    CREATE INDEX "webhooks_updated_at_idx" ON "webhooks" USING btree ("updated_at");
    CREATE INDEX "webhooks_created_at_idx" ON "webhooks" USING btree ("created_at");

    CREATE TYPE "public"."enum_webhook_deliveries_event" AS ENUM('article.published', 'article.updated', 'article.unpublished', 'article.deleted', 'article.scheduled', 'reply.created', 'reply.deleted', 'user.registered', 'category.created', 'category.updated', 'category.deleted', 'tag.created', 'tag.updated', 'tag.deleted', 'settings.updated', 'ping');
    CREATE TYPE "public"."enum_webhook_deliveries_status" AS ENUM('pending', 'sending', 'delivered', 'failed');
    CREATE TABLE "webhook_deliveries" (
      "id" serial PRIMARY KEY NOT NULL,
      "webhook_id" integer NOT NULL,
      "event" "enum_webhook_deliveries_event" NOT NULL,
      "message_id" varchar NOT NULL,
      "body" jsonb NOT NULL,
      "status" "enum_webhook_deliveries_status" DEFAULT 'pending' NOT NULL,
      "attempt_count" numeric DEFAULT 0,
      "next_attempt_at" timestamp(3) with time zone,
      "lease_until" timestamp(3) with time zone,
      "last_status" numeric,
      "last_error" varchar,
      "delivered_at" timestamp(3) with time zone,
      "attempts" jsonb DEFAULT '[]'::jsonb,
      "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
    );
    ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id");
    CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event");
    CREATE UNIQUE INDEX "webhook_deliveries_message_id_idx" ON "webhook_deliveries" USING btree ("message_id");
    CREATE INDEX "webhook_deliveries_status_idx" ON "webhook_deliveries" USING btree ("status");
    CREATE INDEX "webhook_deliveries_next_attempt_at_idx" ON "webhook_deliveries" USING btree ("next_attempt_at");
    CREATE INDEX "webhook_deliveries_updated_at_idx" ON "webhook_deliveries" USING btree ("updated_at");
    CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries" USING btree ("created_at");
    -- What the retry schedule scans: only rows still to send.
    CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "status" IN ('pending', 'sending');

    ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "webhooks_id" integer;
    ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "webhook_deliveries_id" integer;
    ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_webhooks_fk" FOREIGN KEY ("webhooks_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;
    ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_webhook_deliveries_fk" FOREIGN KEY ("webhook_deliveries_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX "payload_locked_documents_rels_webhooks_id_idx" ON "payload_locked_documents_rels" USING btree ("webhooks_id");
    CREATE INDEX "payload_locked_documents_rels_webhook_deliveries_id_idx" ON "payload_locked_documents_rels" USING btree ("webhook_deliveries_id");

    INSERT INTO "permissions" ("slug", "label", "group")
      SELECT 'webhooks.manage', 'Manage webhooks and read their delivery log', 'admin'
      WHERE NOT EXISTS (SELECT 1 FROM "permissions" WHERE "slug" = 'webhooks.manage');
    INSERT INTO "roles_rels" ("order", "parent_id", "path", "permissions_id")
      SELECT COALESCE((SELECT max("order") FROM "roles_rels" rr WHERE rr."parent_id" = r."id"), 0) + 1, r."id", 'permissions', p."id"
        FROM "roles" r, "permissions" p
       WHERE r."slug" = 'site-owner' AND p."slug" = 'webhooks.manage'
         AND NOT EXISTS (SELECT 1 FROM "roles_rels" rr WHERE rr."parent_id" = r."id" AND rr."permissions_id" = p."id");
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    DELETE FROM "permissions" WHERE "slug" = 'webhooks.manage';
    ALTER TABLE "payload_locked_documents_rels" DROP COLUMN IF EXISTS "webhook_deliveries_id";
    ALTER TABLE "payload_locked_documents_rels" DROP COLUMN IF EXISTS "webhooks_id";
    DROP TABLE IF EXISTS "webhook_deliveries";
    DROP TABLE IF EXISTS "webhooks";
    DROP TYPE IF EXISTS "public"."enum_webhook_deliveries_status";
    DROP TYPE IF EXISTS "public"."enum_webhook_deliveries_event";
  `)
}
