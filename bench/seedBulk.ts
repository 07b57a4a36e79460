/**
 * Bulk benchmark content, written with set-based SQL (generate_series) after
 * the demo seed made roles, users, categories and tags through Payload:
 * N published articles with R replies each, optionally U more users (readers,
 * who also write the replies and some articles). Bodies are copied from real
 * rendered demo articles, so pages weigh what real pages weigh. The whole
 * seed is one transaction, each step timed in the log.
 *
 * Speed (goal: 100,000 articles, 1,000,000 replies and 100,000 users in under
 * 3 minutes): each row used to update every index of its table (articles
 * have a dozen) and run its foreign-key checks as it went in; now the
 * secondary indexes of the tables written are dropped and rebuilt after the
 * inserts (sorted bulk builds, inside the same transaction, so nobody sees
 * them missing; unique and primary keys stay, they are constraints), and when
 * the role may (a superuser) the foreign-key triggers are skipped for the
 * seed's own rows, which are correct by construction (every article and author
 * id is read from its table).
 */
import pg from 'pg'

export type BulkSize = { articles: number; repliesPerArticle: number; users?: number }

/** Seeds the missing articles (and the users, replies); returns the seconds it took, or 0 when nothing was missing. */
export async function seedBulk(databaseUrl: string, { articles, repliesPerArticle: replies, users = 0 }: BulkSize, log: (m: string) => void = console.log): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  const started = Date.now()
  try {
    const { rows } = await db.query<{ n: string }>(`select count(*) n from articles`)
    const missing = articles - Number(rows[0]!.n)
    if (missing <= 0) return 0
    log(`[bench] inserting ${missing.toLocaleString('en')} articles, ${(missing * replies).toLocaleString('en')} replies, ${users.toLocaleString('en')} users…`)
    // Secondary indexes of the tables written in bulk, dropped now and built again after the inserts.
    const { rows: rebuilt } = await db.query<{ name: string; definition: string }>(
      `select i.indexname as name, i.indexdef as definition from pg_indexes i
        where i.schemaname = current_schema() and i.tablename = any($1::text[])
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
      [['users', 'users_rels', 'articles', 'articles_rels', 'replies']],
    )
    let stepStarted = Date.now()
    const step = async (label: string, run: () => Promise<unknown>) => {
      await run()
      log(`[bench]   ${label} (${((Date.now() - stepStarted) / 1000).toFixed(1)} s)`)
      stepStarted = Date.now()
    }
    await db.query('begin')
    await db.query(`set local synchronous_commit = off`)
    await db.query(`set local maintenance_work_mem = '256MB'`)
    const { rows: [role] } = await db.query<{ super: boolean }>(`select rolsuper as super from pg_roles where rolname = current_user`)
    if (role?.super) await db.query(`set local session_replication_role = replica`) // no FK triggers for rows correct by construction
    for (const index of rebuilt) await db.query(`drop index "${index.name}"`)
    if (users > 0) await step(`${users.toLocaleString('en')} users`, async () => {
      // Readers: no password (they cannot sign in), a reader role each.
      await db.query(
        `insert into users (name, email, introduction, created_at, updated_at, _verified)
         select 'Bench reader ' || g, 'bench-reader-' || g || '@inkwell.test', 'Reads a lot.',
                now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval, true
           from generate_series(1, $1::int) g`,
        [users],
      )
      await db.query(
        `insert into users_rels ("order", parent_id, path, roles_id)
         select 1, u.id, 'roles', (select id from roles where slug = 'reader')
           from users u where u.email like 'bench-reader-%'`,
      )
    })
    // Authors: the demo's users, plus (at scale) every 50th bench reader, so user pages have articles.
    await db.query(`create temp table bench_authors as
      select row_number() over (order by id) - 1 as k, id from users
       where email not like 'bench-reader-%' or id % 50 = 0`)
    await db.query(`create temp table bench_categories as select row_number() over (order by id) - 1 as k, id from categories`)
    await db.query(`create temp table bench_sources as
      select row_number() over (order by id) - 1 as k, markdown, html, excerpt from articles
       where format = 'markdown' and html is not null order by id limit 10`)
    await step(`${missing.toLocaleString('en')} articles`, () => db.query(
      `insert into articles (title, slug, format, markdown, html, excerpt, category_id, author_id, status, _status, published_at,
                             meta_title, meta_description, meta_keywords, view_count, reply_count, last_reply_at)
       select 'Benchmark article ' || g, 'benchmark-article-' || g, 'markdown', src.markdown, src.html, src.excerpt,
              c.id, a.id, 'published', 'published', now() - (g || ' minutes')::interval,
              'Benchmark article ' || g, src.excerpt, 'benchmark, inkwell', 0,
              -- The replies below are known in advance: R per article, the last R minutes after publishing.
              $2::int, case when $2::int > 0 then now() - (g || ' minutes')::interval + ($2::int || ' minutes')::interval end
         from generate_series(1, $1::int) g
         join bench_sources src on src.k = g % (select count(*) from bench_sources)
         join bench_categories c on c.k = g % (select count(*) from bench_categories)
         join bench_authors a on a.k = g % (select count(*) from bench_authors)`,
      [missing, replies],
    ))
    await db.query(`create temp table bench_tags as select row_number() over (order by id) - 1 as k, id from tags`)
    await step('their tags', () => db.query(
      `insert into articles_rels ("order", parent_id, path, tags_id)
       select n, a.id, 'tags', t.id
         from articles a cross join generate_series(1, 3) n
         join bench_tags t on t.k = (a.id + n * 7) % (select count(*) from bench_tags)
        where a.slug like 'benchmark-article-%'`,
    ))
    if (replies > 0) {
      await db.query(`create temp table bench_repliers as
        select row_number() over (order by id) - 1 as k, id from users order by id`)
      await step(`${(missing * replies).toLocaleString('en')} replies`, () => db.query(
        `insert into replies (article_id, author_id, body, html, created_at, updated_at)
         select a.id, u.id, 'Benchmark reply ' || r, '<p>Benchmark reply ' || r || '</p>',
                a.published_at + (r || ' minutes')::interval, a.published_at + (r || ' minutes')::interval
           from articles a cross join generate_series(1, $1::int) r
           join bench_repliers u on u.k = (a.id * 7 + r * 13) % (select count(*) from bench_repliers)
          where a.slug like 'benchmark-article-%'`,
        [replies],
      ))
    }
    await step(`${rebuilt.length} secondary indexes rebuilt`, async () => {
      for (const index of rebuilt) await db.query(index.definition)
    })
    await step('committed', () => db.query('commit'))
    // Visibility maps (index-only scans) and planner statistics for what was written.
    await step('vacuum analyze', () => db.query('vacuum analyze articles, articles_rels, replies, users, users_rels'))
    // The dashboard's rollups are kept by triggers, which the replica role above skipped: recount them.
    const { rows: [rollups] } = await db.query<{ present: boolean }>(`select to_regproc('dashboard_rebuild') is not null as present`)
    if (rollups?.present) await step('dashboard rollups rebuilt', () => db.query('select dashboard_rebuild()'))
    const seconds = (Date.now() - started) / 1000
    log(`[bench] inserted in ${seconds.toFixed(1)} s`)
    return seconds
  } finally {
    await db.end()
  }
}
