/**
 * The dashboard's numbers, each widget one SQL aggregate over the indexes the
 * list queries already use (status + published_at, replies' created_at and
 * article_id + created_at, users' created_at, article_view_days' primary key
 * and day): nothing is loaded into memory but the result rows.
 *
 * Periods are calendar buckets in APP_TIMEZONE: the last 30 days, 12 months or
 * 5 years, the current one included. The buckets come from generate_series
 * over local wall-clock times, and each bucket counts the rows between its
 * start and the next bucket's start converted back to instants (`at time zone`),
 * so a day is 23 or 25 hours across a DST change and an empty bucket is a 0.
 *
 * "Published" means status = 'published' and published_at <= now: scheduled
 * articles (a future published_at) count once their time has come. Replies are
 * deleted for good (collections/Replies: no soft delete), so every stored reply
 * counts.
 */
import type { Payload } from 'payload'

export const PERIODS = { day: 30, month: 12, year: 5 } as const
export type Period = keyof typeof PERIODS

/** Whose statistics: the whole site, or one author's articles (and the replies and views they got). */
export type Scope = { kind: 'site' } | { kind: 'author'; authorId: number }

export type Change = { total: number; inPeriod: number }
export type Totals = {
  users: Change | null
  articles: Change
  replies: Change
  /** Published articles with at least one reply ÷ published articles, now and at the period's start. */
  commentRate: { now: number; atStart: number; repliedNow: number; repliedAtStart: number }
}
export type SeriesPoint = { bucket: string; articles: number; replies: number; users: number | null; views: number }
export type GroupRow = { id: number | null; name: string; articles: number; replies: number; views: number }
export type ArticleRow = { id: number; title: string; views: number }
export type ArticleViews = { id: number; title: string; series: { bucket: string; views: number }[] }

export type StatsQuery = { period: Period; timeZone: string; now: Date; scope: Scope }

type Row = Record<string, unknown>
type Client = { query: (text: string, values?: unknown[]) => Promise<{ rows: Row[] }>; release: () => void }
type Pool = { connect: () => Promise<Client> }

/**
 * Runs one aggregate with PostgreSQL's JIT off. generate_series is estimated
 * at 1,000 rows, so a month of day buckets looks costly enough to JIT-compile,
 * and compiling takes longer (hundreds of ms to seconds) than the query. A
 * read-only transaction scopes the setting to this query.
 */
async function aggregate(payload: Payload, text: string, values: unknown[]): Promise<{ rows: Row[] }> {
  const client = await (payload.db as unknown as { pool: Pool }).pool.connect()
  try {
    await client.query('begin read only')
    await client.query('set local jit = off')
    const result = await client.query(text, values)
    await client.query('commit')
    return result
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

/**
 * Parameters every query shares: $1 time zone, $2 unit ('day' | 'month' |
 * 'year'), $3 bucket count, $4 now, $5 author id (null for the whole site).
 */
function baseParams(q: StatsQuery): unknown[] {
  return [q.timeZone, q.period, PERIODS[q.period], q.now.toISOString(), q.scope.kind === 'author' ? q.scope.authorId : null]
}

/** The period's first bucket as a local time, and as an instant. */
const BOUNDS = `
  bounds as (
    select start_local, start_local at time zone $1 as start_at, $4::timestamptz as now_at
      from (select date_trunc($2, $4::timestamptz at time zone $1) - ($3::int - 1) * ('1 ' || $2)::interval as start_local) s
  )`

/** Published by now, of the scope's author when there is one (alias a). */
const PUBLISHED = `a.status = 'published' and a.published_at <= b.now_at and ($5::int is null or a.author_id = $5)`

const int = (value: unknown): number => Number(value ?? 0)

/**
 * One pass over the scope's published articles gives the article counts, the
 * replies they hold (the reply counter the reply hooks keep) and how many have
 * one; only articles with replies are probed for one before the period began.
 * New replies are those posted in the period, as in the series (replies can
 * only be posted on published articles).
 */
export async function loadTotals(payload: Payload, q: StatsQuery): Promise<Totals> {
  const { rows } = await aggregate(payload, 
    `with ${BOUNDS},
     published as (
       select count(*) as total,
              count(*) filter (where a.published_at >= b.start_at) as in_period,
              coalesce(sum(a.reply_count), 0) as replies,
              count(*) filter (where a.reply_count > 0) as replied,
              count(*) filter (where a.reply_count > 0 and a.published_at < b.start_at
                and exists (select 1 from replies r where r.article_id = a.id and r.created_at < b.start_at)) as replied_at_start
         from articles a, bounds b
        where ${PUBLISHED}
     )
     select p.*,
       case when $5::int is null then (select count(*) from users, bounds b where users.created_at <= b.now_at) end as users_total,
       case when $5::int is null then (select count(*) from users, bounds b where users.created_at >= b.start_at and users.created_at <= b.now_at) end as users_new,
       case when $5::int is null
         then (select count(*) from replies r, bounds b where r.created_at >= b.start_at and r.created_at <= b.now_at)
         else (select count(*) from articles a join replies r on r.article_id = a.id, bounds b
                where a.author_id = $5 and r.created_at >= b.start_at and r.created_at <= b.now_at)
       end as replies_new
     from published p`,
    baseParams(q),
  )
  const r = rows[0]!
  const articles = { total: int(r.total), inPeriod: int(r.in_period) }
  const articlesAtStart = articles.total - articles.inPeriod
  const repliedNow = int(r.replied)
  const repliedAtStart = int(r.replied_at_start)
  return {
    users: r.users_total === null ? null : { total: int(r.users_total), inPeriod: int(r.users_new) },
    articles,
    replies: { total: int(r.replies), inPeriod: int(r.replies_new) },
    commentRate: {
      now: articles.total ? repliedNow / articles.total : 0,
      atStart: articlesAtStart ? repliedAtStart / articlesAtStart : 0,
      repliedNow,
      repliedAtStart,
    },
  }
}

/**
 * New published articles, new replies, new users (site scope only) and views
 * per bucket. One range count per bucket and table, each an index range scan,
 * rather than a GROUP BY over date_trunc of every row: the cost follows the
 * number of rows in range through the index, and empty buckets are 0 by
 * construction.
 */
export async function loadSeries(payload: Payload, q: StatsQuery): Promise<SeriesPoint[]> {
  const { rows } = await aggregate(payload, 
    `with ${BOUNDS},
     buckets as (
       select local, local at time zone $1 as lo, (local + ('1 ' || $2)::interval) at time zone $1 as hi,
              local::date as lo_day, (local + ('1 ' || $2)::interval)::date as hi_day
         from bounds, generate_series(bounds.start_local, date_trunc($2, $4::timestamptz at time zone $1), ('1 ' || $2)::interval) local
     ),
     -- An author's articles, read once: their replies and views are then probed per article
     -- (replies' article_id + created_at, article_view_days' primary key), not filtered out of everyone's.
     mine as materialized (select a.id from articles a where a.author_id = $5)
     select to_char(k.local, 'YYYY-MM-DD') as bucket,
       (select count(*) from articles a, bounds b where ${PUBLISHED} and a.published_at >= k.lo and a.published_at < k.hi) as articles,
       case when $5::int is null
         then (select count(*) from replies r, bounds b where r.created_at >= k.lo and r.created_at < k.hi and r.created_at <= b.now_at)
         else (select count(*) from mine join replies r on r.article_id = mine.id, bounds b
                where r.created_at >= k.lo and r.created_at < k.hi and r.created_at <= b.now_at)
       end as replies,
       case when $5::int is null
         then (select count(*) from users u, bounds b where u.created_at >= k.lo and u.created_at < k.hi and u.created_at <= b.now_at)
       end as users,
       case when $5::int is null
         then (select coalesce(sum(d.views), 0) from article_view_days d where d.day >= k.lo_day and d.day < k.hi_day)
         else (select coalesce(sum(d.views), 0) from mine join article_view_days d on d.article_id = mine.id
                where d.day >= k.lo_day and d.day < k.hi_day)
       end as views
     from buckets k
     order by k.local`,
    baseParams(q),
  )
  return rows.map((r) => ({
    bucket: String(r.bucket),
    articles: int(r.articles),
    replies: int(r.replies),
    users: r.users === null ? null : int(r.users),
    views: int(r.views),
  }))
}

const GROUP_LIMIT = 12

/** Articles published in the period per category (none = "Uncategorised"), with their replies and views so far. */
export async function loadCategories(payload: Payload, q: StatsQuery): Promise<GroupRow[]> {
  const { rows } = await aggregate(payload, 
    `with ${BOUNDS}
     select c.id, coalesce(c.name, 'Uncategorised') as name, count(*) as articles,
            coalesce(sum(a.reply_count), 0) as replies, coalesce(sum(a.view_count), 0) as views
       from articles a cross join bounds b left join categories c on c.id = a.category_id
      where ${PUBLISHED} and a.published_at >= b.start_at
      group by c.id, c.name
      order by articles desc, name
      limit ${GROUP_LIMIT}`,
    baseParams(q),
  )
  return rows.map(groupRow)
}

/** Articles published in the period per tag (an article counts once under each of its tags). */
export async function loadTags(payload: Payload, q: StatsQuery): Promise<GroupRow[]> {
  const { rows } = await aggregate(payload, 
    `with ${BOUNDS}
     select t.id, t.name, count(*) as articles,
            coalesce(sum(a.reply_count), 0) as replies, coalesce(sum(a.view_count), 0) as views
       from articles a cross join bounds b
       join articles_rels rel on rel.parent_id = a.id and rel.path = 'tags'
       join tags t on t.id = rel.tags_id
      where ${PUBLISHED} and a.published_at >= b.start_at
      group by t.id, t.name
      order by articles desc, name
      limit ${GROUP_LIMIT}`,
    baseParams(q),
  )
  return rows.map(groupRow)
}

function groupRow(r: Row): GroupRow {
  return { id: r.id === null ? null : int(r.id), name: String(r.name), articles: int(r.articles), replies: int(r.replies), views: int(r.views) }
}

/**
 * The most viewed articles (the all-time view counter), to choose whose views
 * to chart: a top-N over the scope's articles, where ranking by the period's
 * daily rows would add up every article's every day.
 */
export async function loadTopArticles(payload: Payload, q: StatsQuery): Promise<ArticleRow[]> {
  const { rows } = await aggregate(payload, 
    `select a.id, a.title, a.view_count as views
       from articles a
      where a.view_count > 0 and ($1::int is null or a.author_id = $1)
      order by a.view_count desc, a.id
      limit 10`,
    [q.scope.kind === 'author' ? q.scope.authorId : null],
  )
  return rows.map((r) => ({ id: int(r.id), title: String(r.title), views: int(r.views) }))
}

/** One article's views per bucket; undefined when it does not exist or is not the scope's author's. */
export async function loadArticleViews(payload: Payload, q: StatsQuery, articleId: number): Promise<ArticleViews | undefined> {
  const { rows } = await aggregate(payload, 
    `with ${BOUNDS},
     article as (select a.id, a.title from articles a where a.id = $6 and ($5::int is null or a.author_id = $5))
     select article.id, article.title, to_char(local, 'YYYY-MM-DD') as bucket,
            (select coalesce(sum(d.views), 0) from article_view_days d
              where d.article_id = article.id and d.day >= local::date and d.day < (local + ('1 ' || $2)::interval)::date) as views
       from article, bounds, generate_series(bounds.start_local, date_trunc($2, $4::timestamptz at time zone $1), ('1 ' || $2)::interval) local
      order by local`,
    [...baseParams(q), articleId],
  )
  if (rows.length === 0) return undefined
  return { id: int(rows[0]!.id), title: String(rows[0]!.title), series: rows.map((r) => ({ bucket: String(r.bucket), views: int(r.views) })) }
}
