/**
 * Bulk benchmark content, written with set-based SQL (generate_series) after
 * the demo seed made roles, users, categories and tags through Payload:
 * N published articles with R replies each, optionally U more users (readers,
 * who also write the replies and some articles). Bodies are copied from real
 * rendered demo articles, so pages weigh what real pages weigh. Each step is
 * timed in the log.
 *
 * Speed (goal: 100,000 articles, 1,000,000 replies and 100,000 users in under
 * 3 minutes): each row used to update every index of its table (articles
 * have a dozen) and run its foreign-key checks as it went in; now the
 * secondary indexes of the tables written are dropped and rebuilt after the
 * inserts (sorted bulk builds; unique and primary keys stay, they are
 * constraints), and when the role may (a superuser) the foreign-key triggers
 * are skipped for the seed's own rows, which are correct by construction
 * (every article and author id is read from its table).
 *
 * At 1,000,000 articles (goal: 5 minutes) the work is shared by two
 * connections, one per core: once the articles are in, their search rows go
 * in on one while their tags and replies go in on the other (and a third
 * builds the indexes of users and articles, complete by then, in the time
 * the inserts wait on writes), then both build the remaining indexes
 * (largest tables first, from one queue), vacuum, and recount the
 * trigger-kept summaries. The seed is therefore not one
 * transaction: it writes a database nobody uses yet (the benches make a
 * fresh one), and a failed seed leaves a database to drop.
 */
import { readFileSync } from 'node:fs'

import pg from 'pg'

export type BulkSize = {
  articles: number
  repliesPerArticle: number
  users?: number
  /**
   * A vocabulary (bench/search.ts): each bulk article gets two of its words in the title and
   * 30 in an extra paragraph, drawn with Zipf-like frequencies, and its search row is written
   * here, set-based (the body's lexemes copied from its source article's row, which the demo
   * seed indexed with the application's Chinese segmentation). Without it bulk articles have
   * no search rows (`reindex-search` writes them, one batch of 250 at a time).
   */
  words?: string[]
  /** One more article (the newest bulk one) gets this many replies on top of its share. */
  hotReplies?: number
}

export type BulkResult = {
  /** Seconds the seed took, 0 when nothing was missing. */
  seconds: number
  /** Peak resident memory of the PostgreSQL backends that ran the seed, summed (VmHWM, shared buffers each touched included), MB; NaN when /proc cannot show it. */
  backendPeakMb: number
}

/** Seeds the missing articles (and the users, replies, search rows). */
export async function seedBulk(databaseUrl: string, { articles, repliesPerArticle: replies, users = 0, words, hotReplies = 0 }: BulkSize, log: (m: string) => void = console.log): Promise<BulkResult> {
  const connect = async () => {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    return client
  }
  // `db` runs the sequence; `side` takes the half of each parallel step; `early` builds the indexes
  // of the tables complete once the articles are in (users, articles) while the rest go in.
  const [db, side, early] = await Promise.all([connect(), connect(), connect()])
  const started = Date.now()
  const backends = await Promise.all([db, side, early].map(async (c) => (await c.query<{ pid: number }>(`select pg_backend_pid() as pid`)).rows[0]!.pid))
  try {
    const { rows } = await db.query<{ n: string }>(`select count(*) n from articles`)
    const missing = articles - Number(rows[0]!.n)
    if (missing <= 0) return { seconds: 0, backendPeakMb: NaN }
    log(`[bench] inserting ${missing.toLocaleString('en')} articles, ${(missing * replies).toLocaleString('en')} replies, ${users.toLocaleString('en')} users…`)
    // Secondary indexes of the tables written in bulk, dropped now and built again after the inserts (largest table first).
    const { rows: rebuilt } = await db.query<{ name: string; table: string; definition: string }>(
      `select i.indexname as name, i.tablename as table, i.indexdef as definition from pg_indexes i
        where i.schemaname = current_schema() and i.tablename = any($1::text[])
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)
        order by array_position($1::text[], i.tablename::text), i.indexname`,
      [['replies', 'article_search', 'articles', 'articles_rels', 'users', 'users_rels']],
    )
    let stepStarted = Date.now()
    const step = async (label: string, run: () => Promise<unknown>) => {
      await run()
      log(`[bench]   ${label} (${((Date.now() - stepStarted) / 1000).toFixed(1)} s)`)
      stepStarted = Date.now()
    }
    /** One part of a parallel step, timed on its own. */
    const part = async (label: string, run: () => Promise<unknown>) => {
      const partStarted = Date.now()
      await run()
      log(`[bench]     ${label} (${((Date.now() - partStarted) / 1000).toFixed(1)} s)`)
    }
    await Promise.all([db, side, early].map((client) => prepare(client)))
    /** Builds these indexes on `client`, one after another; the slow ones' times are logged. */
    const build = async (client: pg.Client, queue: typeof rebuilt) => {
      for (let index = queue.shift(); index; index = queue.shift()) {
        const buildStarted = Date.now()
        await client.query(index.definition)
        const seconds = (Date.now() - buildStarted) / 1000
        if (seconds >= 5) log(`[bench]       ${index.name} (${seconds.toFixed(1)} s)`)
      }
    }
    const earlyTables = ['users', 'users_rels', 'articles']
    const later = rebuilt.filter((index) => !earlyTables.includes(index.table))
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
    // Each source's body lexemes (weight C) from its search row, for the bulk copies' search rows.
    await db.query(`create temp table bench_sources as
      select row_number() over (order by a.id) - 1 as k, a.markdown, a.html, a.excerpt,
             coalesce(ts_filter(s.vector, '{c}'), ''::tsvector) as body_vector
        from articles a left join article_search s on s.article_id = a.id
       where a.format = 'markdown' and a.html is not null order by a.id limit 10`)
    // The words of each bulk article (none, plain titles, without a vocabulary), drawn here and
    // sent in batches: drawn in SQL (a subscript of a 20,000-word array per word) they took 9 s per 20,000 articles.
    await db.query(`create temp table bench_words (g int primary key, title text not null, body text)`)
    await step(words ? `varied words for ${missing.toLocaleString('en')} articles` : 'titles', async () => {
      for (let first = 1; first <= missing; first += WORD_BATCH) {
        const batch = Array.from({ length: Math.min(WORD_BATCH, missing - first + 1) }, (_, i) => first + i)
        const drawn = batch.map((g) => wordsOf(g, words))
        await db.query(
          `insert into bench_words (g, title, body) select * from unnest($1::int[], $2::text[], $3::text[])`,
          [batch, drawn.map((d) => d.title), drawn.map((d) => d.body)],
        )
      }
    })
    await step(`${missing.toLocaleString('en')} articles`, () => db.query(
      `insert into articles (title, slug, format, markdown, html, excerpt, category_id, author_id, status, _status, published_at,
                             meta_title, meta_description, meta_keywords, view_count, reply_count, last_reply_at)
       select w.title, 'benchmark-article-' || g, 'markdown', src.markdown,
              src.html || coalesce('<p>' || w.body || '</p>', ''), src.excerpt,
              c.id, a.id, 'published', 'published', now() - (g || ' minutes')::interval,
              w.title, src.excerpt, 'benchmark, inkwell', 0,
              -- The replies below are known in advance: R per article, the last R minutes after publishing.
              $1::int + case when g = 1 then $2::int else 0 end,
              -- The newest bulk article's extra replies come one a second after publishing.
              case when $1::int > 0 or (g = 1 and $2::int > 0)
                   then now() - (g || ' minutes')::interval
                        + (greatest($1::int * 60, case when g = 1 then $2::int else 0 end) || ' seconds')::interval end
         from bench_words w
         join bench_sources src on src.k = g % (select count(*) from bench_sources)
         join bench_categories c on c.k = g % (select count(*) from bench_categories)
         join bench_authors a on a.k = g % (select count(*) from bench_authors)`,
      [replies, hotReplies],
    ))
    // The articles are in: their search rows (here, from the words) and their tags and replies (beside) at once.
    await step('search rows ‖ tags and replies ‖ indexes of users and articles', () => Promise.all([
      part('indexes of users and articles', () => build(early, rebuilt.filter((index) => earlyTables.includes(index.table)))),
      words ? part('their search rows', () => db.query(
        // The vector as searchArticles.ts builds it (title A, excerpt B, body C); the body's lexemes are the
        // source's plus the extra paragraph's (plain ASCII words: no segmentation needed).
        `insert into article_search (article_id, status, published_at, vector)
         select a.id, a.status, a.published_at,
                setweight(to_tsvector('simple', a.title), 'A') || setweight(to_tsvector('simple', coalesce(a.excerpt, '')), 'B')
                || src.body_vector || setweight(to_tsvector('simple', w.body), 'C')
           from bench_words w
           join articles a on a.slug = 'benchmark-article-' || w.g
           join bench_sources src on src.k = w.g % (select count(*) from bench_sources)`,
      )) : Promise.resolve(),
      tagsAndReplies(side, missing, replies, hotReplies, part),
    ]))
    await step(`${later.length} secondary indexes of replies, search rows and tags rebuilt, two at a time`, () => Promise.all([db, side].map((client) => build(client, later))))
    // Visibility maps (index-only scans) and planner statistics for what was written.
    await step('vacuum analyze', () => Promise.all([
      db.query('vacuum analyze articles, articles_rels, users, users_rels, article_search'),
      side.query('vacuum analyze replies'),
    ]))
    // The dashboard's rollups and the list totals are kept by triggers, which the replica role above skipped: recount them.
    const { rows: [kept] } = await db.query<{ rollups: boolean; lists: boolean }>(
      `select to_regproc('dashboard_rebuild') is not null as rollups, to_regproc('public_list_counts_rebuild') is not null as lists`,
    )
    await step('dashboard rollups ‖ list totals recounted', () => Promise.all([
      kept?.rollups ? part('dashboard rollups rebuilt', () => db.query('select dashboard_rebuild()')) : undefined,
      kept?.lists ? part('list totals recounted', () => side.query('select public_list_counts_rebuild()')) : undefined,
    ]))
    const seconds = (Date.now() - started) / 1000
    const backendPeakMb = backends.reduce((sum, pid) => sum + peakRssMb(pid), 0)
    log(`[bench] inserted in ${seconds.toFixed(1)} s; PostgreSQL backends' peak RSS ${backendPeakMb.toFixed(0)} MB (three, summed)`)
    return { seconds, backendPeakMb }
  } finally {
    await Promise.all([db.end(), side.end(), early.end()])
  }
}

/**
 * The seed's settings, for the session: no wait for the WAL flush, more memory for index builds,
 * lz4 for TOAST, and (a superuser) no foreign-key triggers.
 */
async function prepare(client: pg.Client): Promise<void> {
  await client.query(`set synchronous_commit = off`)
  await client.query(`set maintenance_work_mem = '256MB'`)
  // lz4 instead of pglz for the bodies and vectors written (TOAST): several times quicker to compress.
  // (Only when the server was built with it: a failed SET would be an error.)
  const { rows: [lz4] } = await client.query<{ ok: boolean }>(`select 'lz4' = any(enumvals) as ok from pg_settings where name = 'default_toast_compression'`)
  if (lz4?.ok) await client.query(`set default_toast_compression = 'lz4'`)
  const { rows: [role] } = await client.query<{ super: boolean }>(`select rolsuper as super from pg_roles where rolname = current_user`)
  if (role?.super) await client.query(`set session_replication_role = replica`) // no FK triggers for rows correct by construction
}

/** The bulk articles' tags (three each) and replies (R each, and the busy thread's), on `client`. */
async function tagsAndReplies(client: pg.Client, missing: number, replies: number, hotReplies: number, part: (label: string, run: () => Promise<unknown>) => Promise<void>): Promise<void> {
  await client.query(`create temp table bench_tags as select row_number() over (order by id) - 1 as k, id from tags`)
  await part('their tags', () => client.query(
    `insert into articles_rels ("order", parent_id, path, tags_id)
     select n, a.id, 'tags', t.id
       from articles a cross join generate_series(1, 3) n
       join bench_tags t on t.k = (a.id + n * 7) % (select count(*) from bench_tags)
      where a.slug like 'benchmark-article-%'`,
  ))
  await client.query(`create temp table bench_repliers as
    select row_number() over (order by id) - 1 as k, id from users order by id`)
  if (replies > 0) await part(`${(missing * replies).toLocaleString('en')} replies`, () => client.query(
    `insert into replies (article_id, author_id, body, html, created_at, updated_at)
     select a.id, u.id, 'Benchmark reply ' || r, '<p>Benchmark reply ' || r || '</p>',
            a.published_at + (r || ' minutes')::interval, a.published_at + (r || ' minutes')::interval
       from articles a cross join generate_series(1, $1::int) r
       join bench_repliers u on u.k = (a.id * 7 + r * 13) % (select count(*) from bench_repliers)
      where a.slug like 'benchmark-article-%'`,
    [replies],
  ))
  if (hotReplies > 0) await part(`${hotReplies.toLocaleString('en')} more replies on the newest bulk article`, () => client.query(
    `insert into replies (article_id, author_id, body, html, created_at, updated_at)
     select a.id, u.id, 'Busy thread reply ' || r, '<p>Busy thread reply ' || r || '</p>',
            a.published_at + (r || ' seconds')::interval, a.published_at + (r || ' seconds')::interval
       from articles a cross join generate_series(1, $1::int) r
       join bench_repliers u on u.k = (r * 13) % (select count(*) from bench_repliers)
      where a.slug = 'benchmark-article-1'`,
    [hotReplies],
  ))
}

const WORD_BATCH = 50_000

/**
 * Article g's title and extra paragraph: two and 30 (or 31) words drawn log-uniformly, as bench/search.ts
 * drew them (word 1 in nearly every article, word 10,000 in a few dozen), from a generator seeded with g
 * so a size always gets the same text.
 */
function wordsOf(g: number, words: string[] | undefined): { title: string; body: string | null } {
  if (!words) return { title: `Benchmark article ${g}`, body: null }
  let state = (g * 2654435761) >>> 0 || 1
  const draw = () => {
    // xorshift32: quick, and good enough to spread words.
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    const k = Math.floor(Math.exp((state / 2 ** 32) * Math.log(words.length)))
    return words[Math.min(words.length, Math.max(1, k)) - 1]!
  }
  const first = draw()
  const title = `${first[0]!.toUpperCase()}${first.slice(1)} ${draw()} ${g}`
  const body = Array.from({ length: 30 + (g % 2) }, draw).join(' ')
  return { title, body }
}

/** VmHWM of a process on this machine (the PostgreSQL server is local in the benches), MB. */
function peakRssMb(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024
  } catch {
    return NaN
  }
}
