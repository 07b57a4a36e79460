/**
 * Bulk benchmark content: N published articles and their replies, written with
 * set-based SQL (generate_series) after the demo seed made users, categories
 * and tags through Payload. Bodies are copied from real rendered demo articles,
 * so pages weigh what real pages weigh.
 */
import pg from 'pg'

export async function seedBulk(databaseUrl: string, articles: number, repliesPerArticle: number, log: (m: string) => void) {
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  try {
    const { rows } = await db.query<{ n: string }>(`select count(*) n from articles`)
    const missing = articles - Number(rows[0]!.n)
    if (missing <= 0) return
    const started = Date.now()
    log(`[bench] inserting ${missing} articles and ${missing * repliesPerArticle} replies…`)
    await db.query('begin')
    await db.query(
      `insert into articles (title, slug, format, markdown, html, excerpt, category_id, author_id, status, published_at,
                             meta_title, meta_description, meta_keywords, view_count, reply_count)
       select 'Benchmark article ' || g, 'benchmark-article-' || g, 'markdown', src.markdown, src.html, src.excerpt,
              (select id from categories order by id offset (g % (select count(*) from categories)) limit 1),
              (select id from users order by id offset (g % 4) limit 1),
              'published', now() - (g || ' minutes')::interval,
              'Benchmark article ' || g, src.excerpt, 'benchmark, inkwell', 0, 0
         from generate_series(1, $1::int) g
         cross join lateral (select markdown, html, excerpt from articles where format = 'markdown' and html is not null
                             order by id offset (g % 10) limit 1) src`,
      [missing],
    )
    await db.query(
      `insert into articles_rels ("order", parent_id, path, tags_id)
       select k, a.id, 'tags', (select id from tags order by id offset ((a.id + k * 7) % (select count(*) from tags)) limit 1)
         from articles a cross join generate_series(1, 3) k
        where a.slug like 'benchmark-article-%'`,
    )
    if (repliesPerArticle > 0) {
      await db.query(
        `insert into replies (article_id, author_id, body, html, created_at, updated_at)
         select a.id, (select id from users order by id offset (4 + (a.id + r) % 10) limit 1),
                'Benchmark reply ' || r, '<p>Benchmark reply ' || r || '</p>',
                a.published_at + (r || ' minutes')::interval, a.published_at + (r || ' minutes')::interval
           from articles a cross join generate_series(1, $1::int) r
          where a.slug like 'benchmark-article-%'`,
        [repliesPerArticle],
      )
      await db.query(
        `update articles a set reply_count = s.n, last_reply_at = s.last
           from (select article_id, count(*) n, max(created_at) last from replies group by article_id) s
          where s.article_id = a.id`,
      )
    }
    await db.query('commit')
    await db.query('analyze')
    log(`[bench] inserted in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  } finally {
    await db.end()
  }
}
