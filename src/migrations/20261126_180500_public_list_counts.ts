import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * The totals of the reader site's lists (home, a category, a tag, an author),
 * kept as numbers instead of counted: at 1,000,000 articles the home's total
 * was an index-only count of a million entries (~136 ms), a tag's a distinct
 * count of 200,000 relation rows (~67 ms).
 *
 *   public_list_articles  one narrow row per article that is published
 *                         (`status` and `_status` published, a publish time
 *                         set, scheduled ones included): its category,
 *                         author and distinct tags
 *   public_list_counts    per list ('site' 0, 'category' id, 'tag' id,
 *                         'author' id): how many of those rows it has
 *
 * The public sees an article from its publish time on, with no write at that
 * moment (collections/Articles/access.ts), so the counts include the
 * scheduled articles and the reader subtracts the list's few articles whose
 * time has not come (an index range scan of `published_at > now()`,
 * collections/Articles/listTotals.ts). That keeps the counts exact without
 * the minute job.
 *
 * Kept exact by statement-level triggers with transition tables, as the
 * dashboard's rollups (20261124_180000_dashboard_rollups): articles are
 * re-derived by public_list_refresh(ids), which locks them, recomputes their
 * rows from the base tables and applies the difference, so it is idempotent
 * and order-free (an article's delete cascades to its tag rows; whichever
 * trigger runs first subtracts the stored row, the other finds nothing). It
 * locks the articles FOR NO KEY UPDATE (what an update takes anyway; reply
 * inserts' key-share locks pass), so a tag row written concurrently with a
 * publish is derived after that publish commits. Writers that bypass
 * triggers (session_replication_role = replica, as the bench seed does) call
 * public_list_counts_rebuild(); this migration calls it as the backfill.
 * Frozen: it carries its SQL and imports no live code.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TABLE IF NOT EXISTS "public_list_articles" (
      "article_id" integer PRIMARY KEY,
      "category_id" integer,
      "author_id" integer,
      "tag_ids" integer[] NOT NULL DEFAULT '{}'
    );
    CREATE TABLE IF NOT EXISTS "public_list_counts" (
      "list" text NOT NULL,
      "id" integer NOT NULL,
      "articles" integer NOT NULL DEFAULT 0,
      PRIMARY KEY ("list", "id")
    );

    -- What each of these articles contributes now: a row only if it is published (scheduled included).
    CREATE OR REPLACE FUNCTION public_list_facts(ids integer[])
      RETURNS TABLE (article_id integer, category_id integer, author_id integer, tag_ids integer[])
      LANGUAGE sql STABLE AS $$
        SELECT a.id, a.category_id, a.author_id,
               coalesce((SELECT array_agg(DISTINCT r.tags_id ORDER BY r.tags_id) FROM articles_rels r
                          WHERE r.parent_id = a.id AND r.tags_id IS NOT NULL), '{}')
          FROM articles a
         WHERE a.id = ANY(ids) AND a.status = 'published' AND a._status = 'published' AND a.published_at IS NOT NULL
      $$;

    CREATE OR REPLACE FUNCTION public_list_refresh(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
      PERFORM 1 FROM articles a WHERE a.id = ANY(ids) ORDER BY a.id FOR NO KEY UPDATE;
      PERFORM 1 FROM public_list_articles p WHERE p.article_id = ANY(ids) ORDER BY p.article_id FOR UPDATE;
      -- One statement, one snapshot: the stored rows read here are those before this statement's upsert.
      WITH fresh AS (SELECT * FROM public_list_facts(ids)),
      old AS (SELECT p.* FROM public_list_articles p WHERE p.article_id = ANY(ids)),
      contrib AS (SELECT 1 AS sign, f.* FROM fresh f UNION ALL SELECT -1 AS sign, o.* FROM old o),
      deltas AS (
        SELECT 'site'::text AS list, 0 AS id, c.sign FROM contrib c
        UNION ALL SELECT 'category', c.category_id, c.sign FROM contrib c WHERE c.category_id IS NOT NULL
        UNION ALL SELECT 'author', c.author_id, c.sign FROM contrib c WHERE c.author_id IS NOT NULL
        UNION ALL SELECT 'tag', tag.id, c.sign FROM contrib c CROSS JOIN LATERAL unnest(c.tag_ids) AS tag(id)
      ),
      counted AS (
        INSERT INTO public_list_counts AS t (list, id, articles)
        SELECT d.list, d.id, sum(d.sign) FROM deltas d GROUP BY d.list, d.id HAVING sum(d.sign) <> 0 ORDER BY d.list, d.id
        ON CONFLICT (list, id) DO UPDATE SET articles = t.articles + excluded.articles
      ),
      gone AS (DELETE FROM public_list_articles p WHERE p.article_id = ANY(ids) AND NOT EXISTS (SELECT 1 FROM fresh f WHERE f.article_id = p.article_id))
      INSERT INTO public_list_articles AS p SELECT * FROM fresh
      ON CONFLICT (article_id) DO UPDATE SET category_id = excluded.category_id, author_id = excluded.author_id, tag_ids = excluded.tag_ids;
    END $$;

    CREATE OR REPLACE FUNCTION public_list_articles_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM public_list_refresh(array(SELECT n.id FROM new_rows n));
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM public_list_refresh(array(SELECT o.id FROM old_rows o));
      ELSE
        -- A view or reply counter, a title, a new publish time: nothing a list counts (only whether one is set).
        PERFORM public_list_refresh(array(
          SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE (n.status, n._status, n.published_at IS NULL, n.category_id, n.author_id)
                 IS DISTINCT FROM (o.status, o._status, o.published_at IS NULL, o.category_id, o.author_id)));
      END IF;
      RETURN NULL;
    END $$;

    CREATE OR REPLACE FUNCTION public_list_tags_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM public_list_refresh(array(SELECT DISTINCT n.parent_id FROM new_rows n WHERE n.tags_id IS NOT NULL));
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM public_list_refresh(array(SELECT DISTINCT o.parent_id FROM old_rows o WHERE o.tags_id IS NOT NULL));
      ELSE
        PERFORM public_list_refresh(array(
          SELECT n.parent_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE (n.parent_id, n.tags_id) IS DISTINCT FROM (o.parent_id, o.tags_id) AND n.tags_id IS NOT NULL
          UNION SELECT o.parent_id FROM new_rows n JOIN old_rows o ON o.id = n.id
           WHERE (n.parent_id, n.tags_id) IS DISTINCT FROM (o.parent_id, o.tags_id) AND o.tags_id IS NOT NULL));
      END IF;
      RETURN NULL;
    END $$;

    -- Recounts from the base tables (the backfill; after writes that bypassed the triggers).
    CREATE OR REPLACE FUNCTION public_list_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      LOCK TABLE public_list_articles, public_list_counts IN EXCLUSIVE MODE;
      TRUNCATE public_list_articles, public_list_counts;
      INSERT INTO public_list_articles (article_id, category_id, author_id, tag_ids)
      SELECT a.id, a.category_id, a.author_id, coalesce(t.ids, '{}')
        FROM articles a
        LEFT JOIN (SELECT r.parent_id, array_agg(DISTINCT r.tags_id ORDER BY r.tags_id) AS ids FROM articles_rels r
                    WHERE r.tags_id IS NOT NULL GROUP BY r.parent_id) t ON t.parent_id = a.id
       WHERE a.status = 'published' AND a._status = 'published' AND a.published_at IS NOT NULL
       ORDER BY a.id;
      INSERT INTO public_list_counts (list, id, articles)
      SELECT 'site', 0, count(*) FROM public_list_articles
      UNION ALL SELECT 'category', p.category_id, count(*) FROM public_list_articles p WHERE p.category_id IS NOT NULL GROUP BY 2
      UNION ALL SELECT 'author', p.author_id, count(*) FROM public_list_articles p WHERE p.author_id IS NOT NULL GROUP BY 2
      UNION ALL SELECT 'tag', tag.id, count(*) FROM public_list_articles p CROSS JOIN LATERAL unnest(p.tag_ids) AS tag(id) GROUP BY 2;
      ANALYZE public_list_articles, public_list_counts;
    END $$;

    ${sql.raw(statementTriggers('articles', 'public_list_articles', 'public_list_articles_changed'))}
    ${sql.raw(statementTriggers('articles_rels', 'public_list_tags', 'public_list_tags_changed'))}

    SELECT public_list_counts_rebuild();
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    ${sql.raw(dropTriggers('articles', 'public_list_articles'))}
    ${sql.raw(dropTriggers('articles_rels', 'public_list_tags'))}
    DROP FUNCTION IF EXISTS public_list_counts_rebuild();
    DROP FUNCTION IF EXISTS public_list_tags_changed();
    DROP FUNCTION IF EXISTS public_list_articles_changed();
    DROP FUNCTION IF EXISTS public_list_refresh(integer[]);
    DROP FUNCTION IF EXISTS public_list_facts(integer[]);
    DROP TABLE IF EXISTS public_list_articles, public_list_counts;
  `)
}

const EVENTS = [
  ['inserted', 'INSERT', 'NEW TABLE AS new_rows'],
  ['updated', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
  ['deleted', 'DELETE', 'OLD TABLE AS old_rows'],
] as const

/** `<prefix>_inserted|updated|deleted` on `table`: statement-level, with transition tables, calling `fn`. */
function statementTriggers(table: string, prefix: string, fn: string): string {
  return dropTriggers(table, prefix) + EVENTS.map(([name, event, tables]) =>
    `CREATE TRIGGER ${prefix}_${name} AFTER ${event} ON ${table} REFERENCING ${tables} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`).join('\n')
}

function dropTriggers(table: string, prefix: string): string {
  return EVENTS.map(([name]) => `DROP TRIGGER IF EXISTS ${prefix}_${name} ON ${table};`).join('\n') + '\n'
}
