import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Moderation (src/plugins/moderation, issue 29): a state on every reply
 * (published by default, so a site without the plugin behaves as before),
 * its spam score and reasons, when it was first published (notifications go
 * out once, then), the reply it answered, a fingerprint of its text and what
 * the classifier learnt from it; a "replies go to spam" flag and the registration's spam score on users; the
 * owner's rules on site settings; the log of state changes; readers' reports
 * of replies (once per reply and reader); the classifier's
 * word counts; the permission `replies.moderate` for the site owner and
 * administrators. Only published replies count: the reply counter (a hook)
 * and the dashboard's rollup triggers are redefined with the state. Frozen:
 * it carries its SQL (the three functions are copies of 20261124_180000's
 * with the state added) and imports no live code.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TYPE "public"."enum_replies_status" AS ENUM('published', 'held', 'spam', 'trash');
    CREATE TYPE "public"."enum_replies_trained_as" AS ENUM('spam', 'ham');
    CREATE TYPE "public"."enum_moderation_events_from" AS ENUM('published', 'held', 'spam', 'trash');
    CREATE TYPE "public"."enum_moderation_events_to" AS ENUM('published', 'held', 'spam', 'trash');

    ALTER TABLE "replies" ADD COLUMN "status" "enum_replies_status" DEFAULT 'published';
    ALTER TABLE "replies" ADD COLUMN "spam_score" numeric;
    ALTER TABLE "replies" ADD COLUMN "moderation_reasons" jsonb;
    ALTER TABLE "replies" ADD COLUMN "first_published_at" timestamp(3) with time zone;
    ALTER TABLE "replies" ADD COLUMN "answered_reply" numeric;
    ALTER TABLE "replies" ADD COLUMN "moderation_fingerprint" varchar;
    ALTER TABLE "replies" ADD COLUMN "trained_as" "enum_replies_trained_as";
    UPDATE "replies" SET "status" = 'published', "first_published_at" = "created_at";
    CREATE INDEX "replies_status_idx" ON "replies" USING btree ("status");
    CREATE INDEX "replies_moderation_fingerprint_idx" ON "replies" USING btree ("moderation_fingerprint");

    ALTER TABLE "users" ADD COLUMN "moderation_blocked" boolean DEFAULT false;
    ALTER TABLE "users" ADD COLUMN "registration_score" numeric;

    ALTER TABLE "site_settings" ADD COLUMN "moderation_hold_all" boolean DEFAULT false;
    ALTER TABLE "site_settings" ADD COLUMN "moderation_hold_first_replies" numeric DEFAULT 1;
    ALTER TABLE "site_settings" ADD COLUMN "moderation_hold_links" numeric DEFAULT 3;
    ALTER TABLE "site_settings" ADD COLUMN "moderation_hold_words" varchar;
    ALTER TABLE "site_settings" ADD COLUMN "moderation_block_words" varchar;
    ALTER TABLE "site_settings" ADD COLUMN "moderation_trusted_roles" varchar DEFAULT 'site-owner, administrator, author';
    ALTER TABLE "site_settings" ADD COLUMN "moderation_spam_threshold" numeric DEFAULT 0.95;
    ALTER TABLE "site_settings" ADD COLUMN "moderation_hold_threshold" numeric DEFAULT 0.7;

    CREATE TABLE "moderation_events" (
      "id" serial PRIMARY KEY NOT NULL,
      "reply_id" integer NOT NULL,
      "actor_id" integer,
      "from" "enum_moderation_events_from",
      "to" "enum_moderation_events_to" NOT NULL,
      "reasons" jsonb,
      "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
    );
    -- A reply's log goes with it.
    ALTER TABLE "moderation_events" ADD CONSTRAINT "moderation_events_reply_id_replies_id_fk" FOREIGN KEY ("reply_id") REFERENCES "public"."replies"("id") ON DELETE cascade ON UPDATE no action;
    ALTER TABLE "moderation_events" ADD CONSTRAINT "moderation_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
    CREATE INDEX "moderation_events_reply_idx" ON "moderation_events" USING btree ("reply_id");
    CREATE INDEX "moderation_events_actor_idx" ON "moderation_events" USING btree ("actor_id");
    CREATE INDEX "moderation_events_updated_at_idx" ON "moderation_events" USING btree ("updated_at");
    CREATE INDEX "moderation_events_created_at_idx" ON "moderation_events" USING btree ("created_at");
    ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "moderation_events_id" integer;
    ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_moderation_events_fk" FOREIGN KEY ("moderation_events_id") REFERENCES "public"."moderation_events"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX "payload_locked_documents_rels_moderation_events_id_idx" ON "payload_locked_documents_rels" USING btree ("moderation_events_id");

    CREATE TABLE "reply_reports" (
      "id" serial PRIMARY KEY NOT NULL,
      "reply_id" integer NOT NULL,
      "reporter_id" integer,
      "reason" varchar,
      "resolved_at" timestamp(3) with time zone,
      "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
      "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
    );
    ALTER TABLE "reply_reports" ADD CONSTRAINT "reply_reports_reply_id_replies_id_fk" FOREIGN KEY ("reply_id") REFERENCES "public"."replies"("id") ON DELETE cascade ON UPDATE no action;
    ALTER TABLE "reply_reports" ADD CONSTRAINT "reply_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX "reply_reports_reply_idx" ON "reply_reports" USING btree ("reply_id");
    CREATE INDEX "reply_reports_reporter_idx" ON "reply_reports" USING btree ("reporter_id");
    CREATE INDEX "reply_reports_updated_at_idx" ON "reply_reports" USING btree ("updated_at");
    CREATE INDEX "reply_reports_created_at_idx" ON "reply_reports" USING btree ("created_at");
    CREATE UNIQUE INDEX "reply_reporter_idx" ON "reply_reports" USING btree ("reply_id","reporter_id");
    ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "reply_reports_id" integer;
    ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_reply_reports_fk" FOREIGN KEY ("reply_reports_id") REFERENCES "public"."reply_reports"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX "payload_locked_documents_rels_reply_reports_id_idx" ON "payload_locked_documents_rels" USING btree ("reply_reports_id");

    -- The classifier: word -> how many spam and genuine (ham) replies held it; '#docs' and '#words' are the totals.
    CREATE TABLE "moderation_tokens" (
      "token" varchar PRIMARY KEY,
      "spam" integer NOT NULL DEFAULT 0,
      "ham" integer NOT NULL DEFAULT 0
    );

    INSERT INTO "permissions" ("slug", "label", "group")
      SELECT 'replies.moderate', 'Moderate replies (approve, spam, trash) and edit the moderation rules', 'replies'
      WHERE NOT EXISTS (SELECT 1 FROM "permissions" WHERE "slug" = 'replies.moderate');
    INSERT INTO "roles_rels" ("order", "parent_id", "path", "permissions_id")
      SELECT COALESCE((SELECT max("order") FROM "roles_rels" rr WHERE rr."parent_id" = r."id"), 0) + 1, r."id", 'permissions', p."id"
        FROM "roles" r, "permissions" p
       WHERE r."slug" IN ('site-owner', 'administrator') AND p."slug" = 'replies.moderate'
         AND NOT EXISTS (SELECT 1 FROM "roles_rels" rr WHERE rr."parent_id" = r."id" AND rr."permissions_id" = p."id");

    CREATE OR REPLACE FUNCTION dashboard_article_facts(ids integer[])
      RETURNS TABLE (article_id integer, category_id integer, tag_ids integer[], published_at timestamptz,
                     replied_at timestamptz, reply_count integer, view_count integer)
      LANGUAGE sql STABLE AS $$
        SELECT a.id, coalesce(a.category_id, 0),
               coalesce((SELECT array_agg(r.tags_id ORDER BY r.tags_id) FROM articles_rels r
                          WHERE r.parent_id = a.id AND r.path = 'tags' AND r.tags_id IS NOT NULL), '{}'),
               CASE WHEN a.status = 'published' THEN a.published_at END,
               CASE WHEN a.status = 'published' AND a.published_at IS NOT NULL AND a.reply_count > 0 THEN
                 (SELECT CASE WHEN min(r.created_at) IS NOT NULL THEN greatest(a.published_at, min(r.created_at)) END
                    FROM replies r WHERE r.article_id = a.id AND r.status = 'published')
               END,
               coalesce(a.reply_count, 0), coalesce(a.view_count, 0)
          FROM articles a WHERE a.id = ANY(ids)
      $$;

    CREATE OR REPLACE FUNCTION dashboard_replies_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO dashboard_quarters AS t (q, replies)
        SELECT dashboard_quarter(n.created_at), count(*) FROM new_rows n WHERE n.created_at IS NOT NULL AND n.status = 'published' GROUP BY 1 ORDER BY 1
        ON CONFLICT (q) DO UPDATE SET replies = t.replies + excluded.replies;
        PERFORM dashboard_refresh(array(SELECT DISTINCT n.article_id FROM new_rows n WHERE n.article_id IS NOT NULL));
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO dashboard_quarters AS t (q, replies)
        SELECT dashboard_quarter(o.created_at), -count(*) FROM old_rows o WHERE o.created_at IS NOT NULL AND o.status = 'published' GROUP BY 1 ORDER BY 1
        ON CONFLICT (q) DO UPDATE SET replies = t.replies + excluded.replies;
        PERFORM dashboard_refresh(array(SELECT DISTINCT o.article_id FROM old_rows o WHERE o.article_id IS NOT NULL));
      ELSE
        INSERT INTO dashboard_quarters AS t (q, replies)
        SELECT q, sum(n) FROM (
          SELECT dashboard_quarter(n.created_at) AS q, 1 AS n FROM new_rows n WHERE n.created_at IS NOT NULL AND n.status = 'published'
          UNION ALL SELECT dashboard_quarter(o.created_at), -1 FROM old_rows o WHERE o.created_at IS NOT NULL AND o.status = 'published'
        ) x GROUP BY q HAVING sum(n) <> 0 ORDER BY q
        ON CONFLICT (q) DO UPDATE SET replies = t.replies + excluded.replies;
        PERFORM dashboard_refresh(array(
          SELECT n.article_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE (n.article_id, n.created_at, n.status) IS DISTINCT FROM (o.article_id, o.created_at, o.status) AND n.article_id IS NOT NULL
          UNION SELECT o.article_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE (n.article_id, n.created_at, n.status) IS DISTINCT FROM (o.article_id, o.created_at, o.status) AND o.article_id IS NOT NULL));
      END IF;
      RETURN NULL;
    END $$;

    CREATE OR REPLACE FUNCTION dashboard_rebuild() RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      LOCK TABLE dashboard_articles, dashboard_quarters, dashboard_category_quarters, dashboard_tag_quarters,
        dashboard_category_days, dashboard_tag_days, dashboard_view_days IN EXCLUSIVE MODE;
      TRUNCATE dashboard_articles, dashboard_quarters, dashboard_category_quarters, dashboard_tag_quarters,
        dashboard_category_days, dashboard_tag_days, dashboard_view_days;
      INSERT INTO dashboard_articles
      SELECT a.id, coalesce(a.category_id, 0), coalesce(t.ids, '{}'),
             CASE WHEN a.status = 'published' THEN a.published_at END,
             CASE WHEN a.status = 'published' AND a.published_at IS NOT NULL AND a.reply_count > 0 AND f.first IS NOT NULL
               THEN greatest(a.published_at, f.first) END,
             coalesce(a.reply_count, 0), coalesce(a.view_count, 0)
        FROM articles a
        LEFT JOIN (SELECT r.parent_id, array_agg(r.tags_id ORDER BY r.tags_id) AS ids FROM articles_rels r
                    WHERE r.path = 'tags' AND r.tags_id IS NOT NULL GROUP BY r.parent_id) t ON t.parent_id = a.id
        LEFT JOIN (SELECT r.article_id, min(r.created_at) AS first FROM replies r WHERE r.status = 'published' GROUP BY r.article_id) f ON f.article_id = a.id;
      INSERT INTO dashboard_quarters (q, articles, reply_sum, with_replies, replied, replies, users)
      SELECT q, sum(articles), sum(reply_sum), sum(with_replies), sum(replied), sum(replies), sum(users) FROM (
        SELECT dashboard_quarter(d.published_at) AS q, count(*) AS articles, sum(d.reply_count) AS reply_sum,
               count(*) FILTER (WHERE d.reply_count > 0) AS with_replies, 0 AS replied, 0 AS replies, 0 AS users
          FROM dashboard_articles d WHERE d.published_at IS NOT NULL GROUP BY 1
        UNION ALL SELECT dashboard_quarter(d.replied_at), 0, 0, 0, count(*), 0, 0 FROM dashboard_articles d WHERE d.replied_at IS NOT NULL GROUP BY 1
        UNION ALL SELECT dashboard_quarter(r.created_at), 0, 0, 0, 0, count(*), 0 FROM replies r WHERE r.created_at IS NOT NULL AND r.status = 'published' GROUP BY 1
        UNION ALL SELECT dashboard_quarter(u.created_at), 0, 0, 0, 0, 0, count(*) FROM users u WHERE u.created_at IS NOT NULL GROUP BY 1
      ) x GROUP BY q ORDER BY q;
      INSERT INTO dashboard_category_quarters (q, category_id, articles, replies, views)
      SELECT dashboard_quarter(d.published_at), d.category_id, count(*), sum(d.reply_count), sum(d.view_count)
        FROM dashboard_articles d WHERE d.published_at IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2;
      INSERT INTO dashboard_tag_quarters (q, tag_id, articles, replies, views)
      SELECT dashboard_quarter(d.published_at), tag.id, count(*), sum(d.reply_count), sum(d.view_count)
        FROM dashboard_articles d CROSS JOIN LATERAL unnest(d.tag_ids) AS tag(id) WHERE d.published_at IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2;
      INSERT INTO dashboard_category_days (day, category_id, articles, replies, views)
      SELECT (d.q AT TIME ZONE 'UTC')::date, d.category_id, sum(d.articles), sum(d.replies), sum(d.views) FROM dashboard_category_quarters d GROUP BY 1, 2 ORDER BY 1, 2;
      INSERT INTO dashboard_tag_days (day, tag_id, articles, replies, views)
      SELECT (d.q AT TIME ZONE 'UTC')::date, d.tag_id, sum(d.articles), sum(d.replies), sum(d.views) FROM dashboard_tag_quarters d GROUP BY 1, 2 ORDER BY 1, 2;
      INSERT INTO dashboard_view_days (day, views) SELECT v.day, sum(v.views) FROM article_view_days v GROUP BY 1 ORDER BY 1;
      ANALYZE dashboard_articles, dashboard_quarters, dashboard_category_quarters, dashboard_tag_quarters,
        dashboard_category_days, dashboard_tag_days, dashboard_view_days;
    END $$;
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    CREATE OR REPLACE FUNCTION dashboard_article_facts(ids integer[])
      RETURNS TABLE (article_id integer, category_id integer, tag_ids integer[], published_at timestamptz,
                     replied_at timestamptz, reply_count integer, view_count integer)
      LANGUAGE sql STABLE AS $$
        SELECT a.id, coalesce(a.category_id, 0),
               coalesce((SELECT array_agg(r.tags_id ORDER BY r.tags_id) FROM articles_rels r
                          WHERE r.parent_id = a.id AND r.path = 'tags' AND r.tags_id IS NOT NULL), '{}'),
               CASE WHEN a.status = 'published' THEN a.published_at END,
               CASE WHEN a.status = 'published' AND a.published_at IS NOT NULL AND a.reply_count > 0 THEN
                 (SELECT CASE WHEN min(r.created_at) IS NOT NULL THEN greatest(a.published_at, min(r.created_at)) END
                    FROM replies r WHERE r.article_id = a.id)
               END,
               coalesce(a.reply_count, 0), coalesce(a.view_count, 0)
          FROM articles a WHERE a.id = ANY(ids)
      $$;

    CREATE OR REPLACE FUNCTION dashboard_replies_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO dashboard_quarters AS t (q, replies)
        SELECT dashboard_quarter(n.created_at), count(*) FROM new_rows n WHERE n.created_at IS NOT NULL GROUP BY 1 ORDER BY 1
        ON CONFLICT (q) DO UPDATE SET replies = t.replies + excluded.replies;
        PERFORM dashboard_refresh(array(SELECT DISTINCT n.article_id FROM new_rows n WHERE n.article_id IS NOT NULL));
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO dashboard_quarters AS t (q, replies)
        SELECT dashboard_quarter(o.created_at), -count(*) FROM old_rows o WHERE o.created_at IS NOT NULL GROUP BY 1 ORDER BY 1
        ON CONFLICT (q) DO UPDATE SET replies = t.replies + excluded.replies;
        PERFORM dashboard_refresh(array(SELECT DISTINCT o.article_id FROM old_rows o WHERE o.article_id IS NOT NULL));
      ELSE
        INSERT INTO dashboard_quarters AS t (q, replies)
        SELECT q, sum(n) FROM (
          SELECT dashboard_quarter(n.created_at) AS q, 1 AS n FROM new_rows n WHERE n.created_at IS NOT NULL
          UNION ALL SELECT dashboard_quarter(o.created_at), -1 FROM old_rows o WHERE o.created_at IS NOT NULL
        ) x GROUP BY q HAVING sum(n) <> 0 ORDER BY q
        ON CONFLICT (q) DO UPDATE SET replies = t.replies + excluded.replies;
        PERFORM dashboard_refresh(array(
          SELECT n.article_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE (n.article_id, n.created_at) IS DISTINCT FROM (o.article_id, o.created_at) AND n.article_id IS NOT NULL
          UNION SELECT o.article_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE (n.article_id, n.created_at) IS DISTINCT FROM (o.article_id, o.created_at) AND o.article_id IS NOT NULL));
      END IF;
      RETURN NULL;
    END $$;

    CREATE OR REPLACE FUNCTION dashboard_rebuild() RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      LOCK TABLE dashboard_articles, dashboard_quarters, dashboard_category_quarters, dashboard_tag_quarters,
        dashboard_category_days, dashboard_tag_days, dashboard_view_days IN EXCLUSIVE MODE;
      TRUNCATE dashboard_articles, dashboard_quarters, dashboard_category_quarters, dashboard_tag_quarters,
        dashboard_category_days, dashboard_tag_days, dashboard_view_days;
      INSERT INTO dashboard_articles
      SELECT a.id, coalesce(a.category_id, 0), coalesce(t.ids, '{}'),
             CASE WHEN a.status = 'published' THEN a.published_at END,
             CASE WHEN a.status = 'published' AND a.published_at IS NOT NULL AND a.reply_count > 0 AND f.first IS NOT NULL
               THEN greatest(a.published_at, f.first) END,
             coalesce(a.reply_count, 0), coalesce(a.view_count, 0)
        FROM articles a
        LEFT JOIN (SELECT r.parent_id, array_agg(r.tags_id ORDER BY r.tags_id) AS ids FROM articles_rels r
                    WHERE r.path = 'tags' AND r.tags_id IS NOT NULL GROUP BY r.parent_id) t ON t.parent_id = a.id
        LEFT JOIN (SELECT r.article_id, min(r.created_at) AS first FROM replies r GROUP BY r.article_id) f ON f.article_id = a.id;
      INSERT INTO dashboard_quarters (q, articles, reply_sum, with_replies, replied, replies, users)
      SELECT q, sum(articles), sum(reply_sum), sum(with_replies), sum(replied), sum(replies), sum(users) FROM (
        SELECT dashboard_quarter(d.published_at) AS q, count(*) AS articles, sum(d.reply_count) AS reply_sum,
               count(*) FILTER (WHERE d.reply_count > 0) AS with_replies, 0 AS replied, 0 AS replies, 0 AS users
          FROM dashboard_articles d WHERE d.published_at IS NOT NULL GROUP BY 1
        UNION ALL SELECT dashboard_quarter(d.replied_at), 0, 0, 0, count(*), 0, 0 FROM dashboard_articles d WHERE d.replied_at IS NOT NULL GROUP BY 1
        UNION ALL SELECT dashboard_quarter(r.created_at), 0, 0, 0, 0, count(*), 0 FROM replies r WHERE r.created_at IS NOT NULL GROUP BY 1
        UNION ALL SELECT dashboard_quarter(u.created_at), 0, 0, 0, 0, 0, count(*) FROM users u WHERE u.created_at IS NOT NULL GROUP BY 1
      ) x GROUP BY q ORDER BY q;
      INSERT INTO dashboard_category_quarters (q, category_id, articles, replies, views)
      SELECT dashboard_quarter(d.published_at), d.category_id, count(*), sum(d.reply_count), sum(d.view_count)
        FROM dashboard_articles d WHERE d.published_at IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2;
      INSERT INTO dashboard_tag_quarters (q, tag_id, articles, replies, views)
      SELECT dashboard_quarter(d.published_at), tag.id, count(*), sum(d.reply_count), sum(d.view_count)
        FROM dashboard_articles d CROSS JOIN LATERAL unnest(d.tag_ids) AS tag(id) WHERE d.published_at IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2;
      INSERT INTO dashboard_category_days (day, category_id, articles, replies, views)
      SELECT (d.q AT TIME ZONE 'UTC')::date, d.category_id, sum(d.articles), sum(d.replies), sum(d.views) FROM dashboard_category_quarters d GROUP BY 1, 2 ORDER BY 1, 2;
      INSERT INTO dashboard_tag_days (day, tag_id, articles, replies, views)
      SELECT (d.q AT TIME ZONE 'UTC')::date, d.tag_id, sum(d.articles), sum(d.replies), sum(d.views) FROM dashboard_tag_quarters d GROUP BY 1, 2 ORDER BY 1, 2;
      INSERT INTO dashboard_view_days (day, views) SELECT v.day, sum(v.views) FROM article_view_days v GROUP BY 1 ORDER BY 1;
      ANALYZE dashboard_articles, dashboard_quarters, dashboard_category_quarters, dashboard_tag_quarters,
        dashboard_category_days, dashboard_tag_days, dashboard_view_days;
    END $$;

    DELETE FROM "permissions" WHERE "slug" = 'replies.moderate';
    DROP TABLE IF EXISTS "moderation_tokens";
    ALTER TABLE "payload_locked_documents_rels" DROP COLUMN IF EXISTS "reply_reports_id";
    DROP TABLE IF EXISTS "reply_reports";
    ALTER TABLE "payload_locked_documents_rels" DROP COLUMN IF EXISTS "moderation_events_id";
    DROP TABLE IF EXISTS "moderation_events";
    ALTER TABLE "site_settings" DROP COLUMN IF EXISTS "moderation_hold_all", DROP COLUMN IF EXISTS "moderation_hold_first_replies",
      DROP COLUMN IF EXISTS "moderation_hold_links", DROP COLUMN IF EXISTS "moderation_hold_words", DROP COLUMN IF EXISTS "moderation_block_words",
      DROP COLUMN IF EXISTS "moderation_trusted_roles", DROP COLUMN IF EXISTS "moderation_spam_threshold", DROP COLUMN IF EXISTS "moderation_hold_threshold";
    ALTER TABLE "users" DROP COLUMN IF EXISTS "moderation_blocked", DROP COLUMN IF EXISTS "registration_score";
    ALTER TABLE "replies" DROP COLUMN IF EXISTS "status", DROP COLUMN IF EXISTS "spam_score", DROP COLUMN IF EXISTS "moderation_reasons",
      DROP COLUMN IF EXISTS "first_published_at", DROP COLUMN IF EXISTS "answered_reply", DROP COLUMN IF EXISTS "moderation_fingerprint", DROP COLUMN IF EXISTS "trained_as";
    DROP TYPE IF EXISTS "public"."enum_moderation_events_to";
    DROP TYPE IF EXISTS "public"."enum_moderation_events_from";
    DROP TYPE IF EXISTS "public"."enum_replies_trained_as";
    DROP TYPE IF EXISTS "public"."enum_replies_status";
  `)
}
