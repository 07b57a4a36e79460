import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Rollups for the owner's dashboard (src/plugins/dashboard/queries.ts), so the
 * site-wide widgets read a few thousand small rows instead of scanning a
 * million replies, 100 MB of wide article rows or millions of daily view rows.
 *
 * Counts are kept per UTC quarter hour (date_bin '15 minutes'): every time
 * zone's offset is a whole number of quarter hours, so the start of any local
 * day, month or year is a quarter boundary and a bucket is a whole number of
 * quarters, in any zone, across DST changes. Only the quarter holding "now"
 * is read from the base tables (rows up to now), by the dashboard queries.
 *
 *   dashboard_articles           one narrow row per article: what it contributes
 *                                (published time unless a draft, category, tags,
 *                                reply and view counters, the time it first had
 *                                a reply while published); also the all-time
 *                                most-viewed index
 *   dashboard_quarters           per quarter: published articles (by publish time)
 *                                with their reply counter sum and how many have
 *                                replies, articles "replied" (by the later of
 *                                publish and first reply), replies and users (by
 *                                creation time)
 *   dashboard_category_quarters  per category (0 = none) and publish quarter:
 *                                articles, their replies and views
 *   dashboard_tag_quarters       the same per tag
 *   dashboard_category_days,     the same two per UTC day: a period's groups sum its
 *   dashboard_tag_days           whole UTC days, and quarters only at its two ends
 *   dashboard_view_days          all articles' views per day
 *
 * Derived data kept by triggers, not Payload hooks (the rule: src/lib/pool.ts):
 * statistics over all rows must count bulk and raw SQL writes (the view sync,
 * imports, seeds), which never run Payload hooks.
 *
 * Kept exact by statement-level triggers with transition tables (one upsert
 * per statement, however many rows it wrote, so bulk writes stay set-based),
 * whoever writes: Payload, the view sync, raw SQL. Articles are re-derived by
 * dashboard_refresh(ids): it locks their stored rows, recomputes them from the
 * base tables, and applies the difference to the rollups, so it is idempotent
 * and order-free (a reply committed by a concurrent writer is seen after the
 * lock, as in the reply counter's recount). Writers that bypass triggers
 * (session_replication_role = replica, as the bench seed does) call
 * dashboard_rebuild() afterwards; this migration calls it as the backfill.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TABLE IF NOT EXISTS "dashboard_articles" (
      "article_id" integer PRIMARY KEY,
      "category_id" integer NOT NULL DEFAULT 0,
      "tag_ids" integer[] NOT NULL DEFAULT '{}',
      "published_at" timestamptz,
      "replied_at" timestamptz,
      "reply_count" integer NOT NULL DEFAULT 0,
      "view_count" integer NOT NULL DEFAULT 0
    );
    CREATE INDEX IF NOT EXISTS "dashboard_articles_views_idx" ON "dashboard_articles" ("view_count" DESC, "article_id") WHERE "view_count" > 0;

    CREATE TABLE IF NOT EXISTS "dashboard_quarters" (
      "q" timestamptz PRIMARY KEY,
      "articles" integer NOT NULL DEFAULT 0,
      "reply_sum" bigint NOT NULL DEFAULT 0,
      "with_replies" integer NOT NULL DEFAULT 0,
      "replied" integer NOT NULL DEFAULT 0,
      "replies" integer NOT NULL DEFAULT 0,
      "users" integer NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS "dashboard_category_quarters" (
      "category_id" integer NOT NULL,
      "q" timestamptz NOT NULL,
      "articles" integer NOT NULL DEFAULT 0,
      "replies" bigint NOT NULL DEFAULT 0,
      "views" bigint NOT NULL DEFAULT 0,
      PRIMARY KEY ("q", "category_id")
    );
    CREATE TABLE IF NOT EXISTS "dashboard_tag_quarters" (
      "tag_id" integer NOT NULL,
      "q" timestamptz NOT NULL,
      "articles" integer NOT NULL DEFAULT 0,
      "replies" bigint NOT NULL DEFAULT 0,
      "views" bigint NOT NULL DEFAULT 0,
      PRIMARY KEY ("q", "tag_id")
    );
    -- The same per UTC day, so a month of groups sums a row per day, and quarters only at the period's two ends.
    CREATE TABLE IF NOT EXISTS "dashboard_category_days" (
      "category_id" integer NOT NULL,
      "day" date NOT NULL,
      "articles" integer NOT NULL DEFAULT 0,
      "replies" bigint NOT NULL DEFAULT 0,
      "views" bigint NOT NULL DEFAULT 0,
      PRIMARY KEY ("day", "category_id")
    );
    CREATE TABLE IF NOT EXISTS "dashboard_tag_days" (
      "tag_id" integer NOT NULL,
      "day" date NOT NULL,
      "articles" integer NOT NULL DEFAULT 0,
      "replies" bigint NOT NULL DEFAULT 0,
      "views" bigint NOT NULL DEFAULT 0,
      PRIMARY KEY ("day", "tag_id")
    );
    CREATE TABLE IF NOT EXISTS "dashboard_view_days" (
      "day" date PRIMARY KEY,
      "views" bigint NOT NULL DEFAULT 0
    );

    CREATE OR REPLACE FUNCTION dashboard_quarter(t timestamptz) RETURNS timestamptz
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT date_bin('15 minutes', t, timestamptz '2000-01-01 00:00:00+00') $$;

    -- What each of these articles contributes now; a deleted article has no row.
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

    CREATE OR REPLACE FUNCTION dashboard_refresh(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
      PERFORM 1 FROM dashboard_articles d WHERE d.article_id = ANY(ids) ORDER BY d.article_id FOR UPDATE;
      -- One statement, one snapshot: the stored rows read here are those before this statement's upsert.
      WITH fresh AS (SELECT * FROM dashboard_article_facts(ids)),
      old AS (SELECT d.* FROM dashboard_articles d WHERE d.article_id = ANY(ids)),
      contrib AS (SELECT 1 AS sign, f.* FROM fresh f UNION ALL SELECT -1 AS sign, o.* FROM old o),
      quarters AS (
        INSERT INTO dashboard_quarters AS t (q, articles, reply_sum, with_replies, replied)
        SELECT q, sum(articles), sum(reply_sum), sum(with_replies), sum(replied) FROM (
          SELECT dashboard_quarter(c.published_at) AS q, c.sign AS articles, c.sign * c.reply_count::bigint AS reply_sum,
                 c.sign * (c.reply_count > 0)::int AS with_replies, 0 AS replied
            FROM contrib c WHERE c.published_at IS NOT NULL
          UNION ALL
          SELECT dashboard_quarter(c.replied_at), 0, 0, 0, c.sign FROM contrib c WHERE c.replied_at IS NOT NULL
        ) x GROUP BY q
        HAVING sum(articles) <> 0 OR sum(reply_sum) <> 0 OR sum(with_replies) <> 0 OR sum(replied) <> 0
        ORDER BY q
        ON CONFLICT (q) DO UPDATE SET articles = t.articles + excluded.articles, reply_sum = t.reply_sum + excluded.reply_sum,
          with_replies = t.with_replies + excluded.with_replies, replied = t.replied + excluded.replied
      ),
      categories AS (
        INSERT INTO dashboard_category_quarters AS t (q, category_id, articles, replies, views)
        SELECT dashboard_quarter(c.published_at) AS q, c.category_id, sum(c.sign), sum(c.sign * c.reply_count::bigint), sum(c.sign * c.view_count::bigint)
          FROM contrib c WHERE c.published_at IS NOT NULL
         GROUP BY 1, 2
        HAVING sum(c.sign) <> 0 OR sum(c.sign * c.reply_count::bigint) <> 0 OR sum(c.sign * c.view_count::bigint) <> 0
         ORDER BY 1, 2
        ON CONFLICT (q, category_id) DO UPDATE SET articles = t.articles + excluded.articles,
          replies = t.replies + excluded.replies, views = t.views + excluded.views
      ),
      tags AS (
        INSERT INTO dashboard_tag_quarters AS t (q, tag_id, articles, replies, views)
        SELECT dashboard_quarter(c.published_at) AS q, tag.id, sum(c.sign), sum(c.sign * c.reply_count::bigint), sum(c.sign * c.view_count::bigint)
          FROM contrib c CROSS JOIN LATERAL unnest(c.tag_ids) AS tag(id) WHERE c.published_at IS NOT NULL
         GROUP BY 1, 2
        HAVING sum(c.sign) <> 0 OR sum(c.sign * c.reply_count::bigint) <> 0 OR sum(c.sign * c.view_count::bigint) <> 0
         ORDER BY 1, 2
        ON CONFLICT (q, tag_id) DO UPDATE SET articles = t.articles + excluded.articles,
          replies = t.replies + excluded.replies, views = t.views + excluded.views
      ),
      category_days AS (
        INSERT INTO dashboard_category_days AS t (day, category_id, articles, replies, views)
        SELECT (c.published_at AT TIME ZONE 'UTC')::date AS day, c.category_id, sum(c.sign), sum(c.sign * c.reply_count::bigint), sum(c.sign * c.view_count::bigint)
          FROM contrib c WHERE c.published_at IS NOT NULL
         GROUP BY 1, 2
        HAVING sum(c.sign) <> 0 OR sum(c.sign * c.reply_count::bigint) <> 0 OR sum(c.sign * c.view_count::bigint) <> 0
         ORDER BY 1, 2
        ON CONFLICT (day, category_id) DO UPDATE SET articles = t.articles + excluded.articles,
          replies = t.replies + excluded.replies, views = t.views + excluded.views
      ),
      tag_days AS (
        INSERT INTO dashboard_tag_days AS t (day, tag_id, articles, replies, views)
        SELECT (c.published_at AT TIME ZONE 'UTC')::date AS day, tag.id, sum(c.sign), sum(c.sign * c.reply_count::bigint), sum(c.sign * c.view_count::bigint)
          FROM contrib c CROSS JOIN LATERAL unnest(c.tag_ids) AS tag(id) WHERE c.published_at IS NOT NULL
         GROUP BY 1, 2
        HAVING sum(c.sign) <> 0 OR sum(c.sign * c.reply_count::bigint) <> 0 OR sum(c.sign * c.view_count::bigint) <> 0
         ORDER BY 1, 2
        ON CONFLICT (day, tag_id) DO UPDATE SET articles = t.articles + excluded.articles,
          replies = t.replies + excluded.replies, views = t.views + excluded.views
      ),
      gone AS (DELETE FROM dashboard_articles d WHERE d.article_id = ANY(ids) AND NOT EXISTS (SELECT 1 FROM fresh f WHERE f.article_id = d.article_id))
      INSERT INTO dashboard_articles AS d SELECT * FROM fresh
      ON CONFLICT (article_id) DO UPDATE SET category_id = excluded.category_id, tag_ids = excluded.tag_ids,
        published_at = excluded.published_at, replied_at = excluded.replied_at,
        reply_count = excluded.reply_count, view_count = excluded.view_count;
    END $$;

    CREATE OR REPLACE FUNCTION dashboard_articles_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM dashboard_refresh(array(SELECT n.id FROM new_rows n));
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM dashboard_refresh(array(SELECT o.id FROM old_rows o));
      ELSE
        PERFORM dashboard_refresh(array(
          SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE (n.status, n.published_at, n.category_id, n.reply_count, n.view_count)
                 IS DISTINCT FROM (o.status, o.published_at, o.category_id, o.reply_count, o.view_count)));
      END IF;
      RETURN NULL;
    END $$;

    CREATE OR REPLACE FUNCTION dashboard_article_tags_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM dashboard_refresh(array(SELECT DISTINCT n.parent_id FROM new_rows n WHERE n.path = 'tags'));
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM dashboard_refresh(array(SELECT DISTINCT o.parent_id FROM old_rows o WHERE o.path = 'tags'));
      ELSE
        PERFORM dashboard_refresh(array(
          SELECT n.parent_id FROM new_rows n WHERE n.path = 'tags' OR n.tags_id IS NOT NULL
          UNION SELECT o.parent_id FROM old_rows o WHERE o.path = 'tags' OR o.tags_id IS NOT NULL));
      END IF;
      RETURN NULL;
    END $$;

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

    CREATE OR REPLACE FUNCTION dashboard_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO dashboard_quarters AS t (q, users)
        SELECT dashboard_quarter(n.created_at), count(*) FROM new_rows n WHERE n.created_at IS NOT NULL GROUP BY 1 ORDER BY 1
        ON CONFLICT (q) DO UPDATE SET users = t.users + excluded.users;
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO dashboard_quarters AS t (q, users)
        SELECT dashboard_quarter(o.created_at), -count(*) FROM old_rows o WHERE o.created_at IS NOT NULL GROUP BY 1 ORDER BY 1
        ON CONFLICT (q) DO UPDATE SET users = t.users + excluded.users;
      ELSE
        INSERT INTO dashboard_quarters AS t (q, users)
        SELECT q, sum(n) FROM (
          SELECT dashboard_quarter(n.created_at) AS q, 1 AS n FROM new_rows n WHERE n.created_at IS NOT NULL
          UNION ALL SELECT dashboard_quarter(o.created_at), -1 FROM old_rows o WHERE o.created_at IS NOT NULL
        ) x GROUP BY q HAVING sum(n) <> 0 ORDER BY q
        ON CONFLICT (q) DO UPDATE SET users = t.users + excluded.users;
      END IF;
      RETURN NULL;
    END $$;

    CREATE OR REPLACE FUNCTION dashboard_view_days_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO dashboard_view_days AS t (day, views)
        SELECT n.day, sum(n.views) FROM new_rows n GROUP BY 1 ORDER BY 1
        ON CONFLICT (day) DO UPDATE SET views = t.views + excluded.views;
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO dashboard_view_days AS t (day, views)
        SELECT o.day, -sum(o.views) FROM old_rows o GROUP BY 1 ORDER BY 1
        ON CONFLICT (day) DO UPDATE SET views = t.views + excluded.views;
      ELSE
        INSERT INTO dashboard_view_days AS t (day, views)
        SELECT day, sum(v) FROM (SELECT n.day, n.views::bigint AS v FROM new_rows n UNION ALL SELECT o.day, -o.views::bigint FROM old_rows o) x
         GROUP BY day HAVING sum(v) <> 0 ORDER BY day
        ON CONFLICT (day) DO UPDATE SET views = t.views + excluded.views;
      END IF;
      RETURN NULL;
    END $$;

    -- Recomputes every rollup from the base tables (the backfill; after writes that bypassed the triggers),
    -- in key order so a period's rows share pages.
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

    DROP TRIGGER IF EXISTS dashboard_articles_inserted ON articles;
    DROP TRIGGER IF EXISTS dashboard_articles_updated ON articles;
    DROP TRIGGER IF EXISTS dashboard_articles_deleted ON articles;
    CREATE TRIGGER dashboard_articles_inserted AFTER INSERT ON articles REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_articles_changed();
    CREATE TRIGGER dashboard_articles_updated AFTER UPDATE ON articles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_articles_changed();
    CREATE TRIGGER dashboard_articles_deleted AFTER DELETE ON articles REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_articles_changed();

    DROP TRIGGER IF EXISTS dashboard_article_tags_inserted ON articles_rels;
    DROP TRIGGER IF EXISTS dashboard_article_tags_updated ON articles_rels;
    DROP TRIGGER IF EXISTS dashboard_article_tags_deleted ON articles_rels;
    CREATE TRIGGER dashboard_article_tags_inserted AFTER INSERT ON articles_rels REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_article_tags_changed();
    CREATE TRIGGER dashboard_article_tags_updated AFTER UPDATE ON articles_rels REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_article_tags_changed();
    CREATE TRIGGER dashboard_article_tags_deleted AFTER DELETE ON articles_rels REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_article_tags_changed();

    DROP TRIGGER IF EXISTS dashboard_replies_inserted ON replies;
    DROP TRIGGER IF EXISTS dashboard_replies_updated ON replies;
    DROP TRIGGER IF EXISTS dashboard_replies_deleted ON replies;
    CREATE TRIGGER dashboard_replies_inserted AFTER INSERT ON replies REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_replies_changed();
    CREATE TRIGGER dashboard_replies_updated AFTER UPDATE ON replies REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_replies_changed();
    CREATE TRIGGER dashboard_replies_deleted AFTER DELETE ON replies REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_replies_changed();

    DROP TRIGGER IF EXISTS dashboard_users_inserted ON users;
    DROP TRIGGER IF EXISTS dashboard_users_updated ON users;
    DROP TRIGGER IF EXISTS dashboard_users_deleted ON users;
    CREATE TRIGGER dashboard_users_inserted AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_users_changed();
    CREATE TRIGGER dashboard_users_updated AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_users_changed();
    CREATE TRIGGER dashboard_users_deleted AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_users_changed();

    DROP TRIGGER IF EXISTS dashboard_view_days_inserted ON article_view_days;
    DROP TRIGGER IF EXISTS dashboard_view_days_updated ON article_view_days;
    DROP TRIGGER IF EXISTS dashboard_view_days_deleted ON article_view_days;
    CREATE TRIGGER dashboard_view_days_inserted AFTER INSERT ON article_view_days REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_view_days_changed();
    CREATE TRIGGER dashboard_view_days_updated AFTER UPDATE ON article_view_days REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_view_days_changed();
    CREATE TRIGGER dashboard_view_days_deleted AFTER DELETE ON article_view_days REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION dashboard_view_days_changed();

    SELECT dashboard_rebuild();
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    DROP TRIGGER IF EXISTS dashboard_articles_inserted ON articles;
    DROP TRIGGER IF EXISTS dashboard_articles_updated ON articles;
    DROP TRIGGER IF EXISTS dashboard_articles_deleted ON articles;
    DROP TRIGGER IF EXISTS dashboard_article_tags_inserted ON articles_rels;
    DROP TRIGGER IF EXISTS dashboard_article_tags_updated ON articles_rels;
    DROP TRIGGER IF EXISTS dashboard_article_tags_deleted ON articles_rels;
    DROP TRIGGER IF EXISTS dashboard_replies_inserted ON replies;
    DROP TRIGGER IF EXISTS dashboard_replies_updated ON replies;
    DROP TRIGGER IF EXISTS dashboard_replies_deleted ON replies;
    DROP TRIGGER IF EXISTS dashboard_users_inserted ON users;
    DROP TRIGGER IF EXISTS dashboard_users_updated ON users;
    DROP TRIGGER IF EXISTS dashboard_users_deleted ON users;
    DROP TRIGGER IF EXISTS dashboard_view_days_inserted ON article_view_days;
    DROP TRIGGER IF EXISTS dashboard_view_days_updated ON article_view_days;
    DROP TRIGGER IF EXISTS dashboard_view_days_deleted ON article_view_days;
    DROP FUNCTION IF EXISTS dashboard_rebuild();
    DROP FUNCTION IF EXISTS dashboard_view_days_changed();
    DROP FUNCTION IF EXISTS dashboard_users_changed();
    DROP FUNCTION IF EXISTS dashboard_replies_changed();
    DROP FUNCTION IF EXISTS dashboard_article_tags_changed();
    DROP FUNCTION IF EXISTS dashboard_articles_changed();
    DROP FUNCTION IF EXISTS dashboard_refresh(integer[]);
    DROP FUNCTION IF EXISTS dashboard_article_facts(integer[]);
    DROP FUNCTION IF EXISTS dashboard_quarter(timestamptz);
    DROP TABLE IF EXISTS dashboard_articles, dashboard_quarters, dashboard_category_quarters, dashboard_tag_quarters,
      dashboard_category_days, dashboard_tag_days, dashboard_view_days;
  `)
}
