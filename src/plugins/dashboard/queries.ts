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
 * The whole site's figures read the rollups of migration
 * 20261124_180000_dashboard_rollups (per UTC quarter hour, kept exact by
 * triggers): a local day, month or year is a whole number of quarters in every
 * zone, so a bucket sums its quarters, and only the quarter holding "now" is
 * counted from the base tables (rows up to now). Should a bucket not start on
 * a quarter (a zone with an odd offset), the direct aggregates below answer.
 * An author's figures are the direct aggregates: they probe only that
 * author's articles through the author indexes.
 *
 * "Published" means public (publicArticleSql at the request's moment): scheduled
 * articles (a future published_at) count once their time has come. Replies are
 * deleted for good (collections/Replies: no soft delete), so every stored reply
 * counts.
 */
import type { Payload } from 'payload'
import type { PoolClient } from 'pg'
import { publicArticleSql } from '../../../collections/Articles/access'
import { poolOf, withLocalSettings } from '../../lib/pool'
import { publicReplySql } from '../../../collections/Replies/access'

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

/** direct: skip the rollups (tests compare both; the rollups are used whenever they apply). */
export type StatsQuery = { period: Period; timeZone: string; now: Date; scope: Scope; direct?: boolean }

type Row = Record<string, unknown>
type Client = PoolClient

/**
 * Runs one aggregate with PostgreSQL's JIT off. generate_series is estimated
 * at 1,000 rows, so a month of day buckets looks costly enough to JIT-compile,
 * and compiling takes longer (hundreds of ms to seconds) than the query. A
 * read-only transaction scopes the setting to this query.
 */
async function withClient<T>(payload: Payload, run: (client: Client) => Promise<T>): Promise<T> {
  return withLocalSettings(poolOf(payload), 'begin read only; set local jit = off', run)
}

async function aggregate(payload: Payload, text: string, values: unknown[]): Promise<{ rows: Row[] }> {
  return withClient(payload, (client) => client.query(text, values))
}

/**
 * Does every bucket of the period start (and the last one end) on a UTC
 * quarter hour? True for every zone of today's tz database; when not, the
 * quarter rollups cannot split the buckets and the direct aggregate answers.
 */
const ALIGNED = `
  select bool_and(extract(epoch from (l at time zone $1)) % 900 = 0) as ok
    from (select date_trunc($2, $4::timestamptz at time zone $1) as last_local) e,
         generate_series(e.last_local - ($3::int - 1) * ('1 ' || $2)::interval, e.last_local + ('1 ' || $2)::interval, ('1 ' || $2)::interval) l`

/**
 * The site scope's rollup query when the period's buckets fall on quarter
 * hours, the direct aggregate otherwise (and for an author), in one read-only
 * transaction.
 */
async function siteOrDirect(payload: Payload, q: StatsQuery, rollup: string, direct: string, values: unknown[]): Promise<{ rows: Row[] }> {
  return withClient(payload, async (client) => {
    if (q.scope.kind === 'site' && !q.direct) {
      const { rows } = await client.query(ALIGNED, values.slice(0, 4))
      if (rows[0]?.ok === true) return client.query(rollup, values.slice(0, 4))
    }
    return client.query(direct, values)
  })
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
    select start_local, start_local at time zone $1 as start_at, $4::timestamptz as now_at,
           dashboard_quarter($4::timestamptz) as fq
      from (select date_trunc($2, $4::timestamptz at time zone $1) - ($3::int - 1) * ('1 ' || $2)::interval as start_local) s
  )`

/** Published by now, of the scope's author when there is one (alias a). */
const PUBLISHED = `${publicArticleSql('a', 'b.now_at')} and ($5::int is null or a.author_id = $5)`

const int = (value: unknown): number => Number(value ?? 0)

const GROUP_LIMIT = 12

// ---- The site scope, from the quarter-hour rollups ($1 zone, $2 unit, $3 buckets, $4 now) ----

/** Published articles of the quarter holding now, up to now: the part the rollups cannot cut. */
const EDGE_ARTICLES = `from articles a, bounds b where ${publicArticleSql('a', 'b.now_at')} and a.published_at >= b.fq`

const TOTALS_SITE = `
  with ${BOUNDS},
  rolled as (
    select coalesce(sum(d.articles), 0) as articles,
           coalesce(sum(d.articles) filter (where d.q >= b.start_at), 0) as articles_new,
           coalesce(sum(d.reply_sum), 0) as reply_sum,
           coalesce(sum(d.with_replies), 0) as with_replies,
           coalesce(sum(d.replied) filter (where d.q < b.start_at), 0) as replied_at_start,
           coalesce(sum(d.replies) filter (where d.q >= b.start_at), 0) as replies_new,
           coalesce(sum(d.users), 0) as users,
           coalesce(sum(d.users) filter (where d.q >= b.start_at), 0) as users_new
      from dashboard_quarters d, bounds b where d.q < b.fq
  ),
  edge as (select count(*) as n, coalesce(sum(a.reply_count), 0) as reply_sum, count(*) filter (where a.reply_count > 0) as with_replies ${EDGE_ARTICLES}),
  edge_replies as (select count(*) as n from replies r, bounds b where r.created_at >= b.fq and r.created_at <= b.now_at and ${publicReplySql('r')}),
  edge_users as (select count(*) as n from users u, bounds b where u.created_at >= b.fq and u.created_at <= b.now_at)
  select r.articles + e.n as total, r.articles_new + e.n as in_period, r.reply_sum + e.reply_sum as replies,
         r.with_replies + e.with_replies as replied, r.replied_at_start,
         r.users + eu.n as users_total, r.users_new + eu.n as users_new, r.replies_new + er.n as replies_new
    from rolled r, edge e, edge_replies er, edge_users eu`

const SERIES_SITE = `
  with ${BOUNDS},
  buckets as (
    select local from bounds, generate_series(bounds.start_local, date_trunc($2, $4::timestamptz at time zone $1), ('1 ' || $2)::interval) local
  ),
  counted as (
    select d.q, d.articles, d.replies, d.users from dashboard_quarters d, bounds b where d.q >= b.start_at and d.q < b.fq
    union all select b.fq, 1, 0, 0 ${EDGE_ARTICLES}
    union all select b.fq, 0, 1, 0 from replies r, bounds b where r.created_at >= b.fq and r.created_at <= b.now_at and ${publicReplySql('r')}
    union all select b.fq, 0, 0, 1 from users u, bounds b where u.created_at >= b.fq and u.created_at <= b.now_at
  ),
  per as (
    select date_trunc($2, c.q at time zone $1) as local, sum(c.articles) as articles, sum(c.replies) as replies, sum(c.users) as users
      from counted c group by 1
  ),
  viewed as (
    select date_trunc($2, v.day::timestamp) as local, sum(v.views) as views
      from dashboard_view_days v, bounds b where v.day >= b.start_local::date group by 1
  )
  select to_char(k.local, 'YYYY-MM-DD') as bucket, coalesce(p.articles, 0) as articles, coalesce(p.replies, 0) as replies,
         coalesce(p.users, 0) as users, coalesce(w.views, 0) as views
    from buckets k left join per p on p.local = k.local left join viewed w on w.local = k.local
   order by k.local`

/**
 * A period's groups, [start, now's quarter), as whole UTC days [d0, d1) plus the quarters
 * before d0 and from d1 (when no whole day fits, the quarters of [start, now's quarter)).
 */
const GROUP_SPANS = `
  spans as (
    select b.*, d0_at, greatest(d0_at, date_trunc('day', b.fq at time zone 'UTC') at time zone 'UTC') as d1_at
      from bounds b,
      lateral (select date_trunc('day', b.start_at at time zone 'UTC') at time zone 'UTC'
                      + case when date_trunc('day', b.start_at at time zone 'UTC') at time zone 'UTC' = b.start_at then interval '0' else interval '1 day' end as d0_at) d
  )`

/** Rows of a day and a quarter rollup ("category" or "tag") within the spans. */
const groupRows = (kind: 'category' | 'tag') => `
    select d.${kind}_id as key, d.articles, d.replies, d.views from dashboard_${kind}_days d, spans s
     where d.day >= (s.d0_at at time zone 'UTC')::date and d.day < (s.d1_at at time zone 'UTC')::date
    union all select d.${kind}_id, d.articles, d.replies, d.views from dashboard_${kind}_quarters d, spans s
     where d.q >= s.start_at and d.q < least(s.d0_at, s.fq)
    union all select d.${kind}_id, d.articles, d.replies, d.views from dashboard_${kind}_quarters d, spans s
     where d.q >= s.d1_at and d.q < s.fq`

const CATEGORIES_SITE = `
  with ${BOUNDS}, ${GROUP_SPANS},
  counted as (
    ${groupRows('category')}
    union all select coalesce(a.category_id, 0), 1, coalesce(a.reply_count, 0), coalesce(a.view_count, 0) ${EDGE_ARTICLES}
  ),
  grouped as (
    select c.key, sum(c.articles) as articles, sum(c.replies) as replies, sum(c.views) as views
      from counted c group by 1 having sum(c.articles) > 0
  )
  select c.id, coalesce(c.name, 'Uncategorised') as name, sum(g.articles) as articles, sum(g.replies) as replies, sum(g.views) as views
    from grouped g left join categories c on c.id = nullif(g.key, 0)
   group by c.id, c.name
   order by articles desc, name
   limit ${GROUP_LIMIT}`

const TAGS_SITE = `
  with ${BOUNDS}, ${GROUP_SPANS},
  counted as (
    ${groupRows('tag')}
    union all select rel.tags_id, 1, coalesce(a.reply_count, 0), coalesce(a.view_count, 0)
      from articles a join articles_rels rel on rel.parent_id = a.id and rel.path = 'tags', bounds b
     where ${publicArticleSql('a', 'b.now_at')} and a.published_at >= b.fq
  ),
  grouped as (
    select c.key, sum(c.articles) as articles, sum(c.replies) as replies, sum(c.views) as views
      from counted c group by 1 having sum(c.articles) > 0
  )
  select t.id, t.name, g.articles, g.replies, g.views
    from grouped g join tags t on t.id = g.key
   order by articles desc, name
   limit ${GROUP_LIMIT}`

/**
 * One pass over the scope's published articles gives the article counts, the
 * replies they hold (the reply counter the reply hooks keep) and how many have
 * one; only articles with replies are probed for one before the period began.
 * New replies are those posted in the period, as in the series (replies can
 * only be posted on published articles).
 */
export async function loadTotals(payload: Payload, q: StatsQuery): Promise<Totals> {
  const { rows } = await siteOrDirect(payload, q, TOTALS_SITE,
    `with ${BOUNDS},
     published as (
       select count(*) as total,
              count(*) filter (where a.published_at >= b.start_at) as in_period,
              coalesce(sum(a.reply_count), 0) as replies,
              count(*) filter (where a.reply_count > 0) as replied,
              count(*) filter (where a.reply_count > 0 and a.published_at < b.start_at
                and exists (select 1 from replies r where r.article_id = a.id and r.created_at < b.start_at and ${publicReplySql('r')})) as replied_at_start
         from articles a, bounds b
        where ${PUBLISHED}
     )
     select p.*,
       case when $5::int is null then (select count(*) from users, bounds b where users.created_at <= b.now_at) end as users_total,
       case when $5::int is null then (select count(*) from users, bounds b where users.created_at >= b.start_at and users.created_at <= b.now_at) end as users_new,
       case when $5::int is null
         then (select count(*) from replies r, bounds b where r.created_at >= b.start_at and r.created_at <= b.now_at and ${publicReplySql('r')})
         else (select count(*) from articles a join replies r on r.article_id = a.id, bounds b
                where a.author_id = $5 and r.created_at >= b.start_at and r.created_at <= b.now_at and ${publicReplySql('r')})
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
  const { rows } = await siteOrDirect(payload, q, SERIES_SITE,
    `with ${BOUNDS},
     buckets as (
       select local, local at time zone $1 as lo, (local + ('1 ' || $2)::interval) at time zone $1 as hi,
              local::date as lo_day, (local + ('1 ' || $2)::interval)::date as hi_day
         from bounds, generate_series(bounds.start_local, date_trunc($2, $4::timestamptz at time zone $1), ('1 ' || $2)::interval) local
     ),
     -- An author's articles, read once: their replies and views are then probed per article
     -- (replies' article_id + created_at, article_view_days' primary key), not filtered out of everyone's.
     mine as materialized (select a.id from articles a where a.author_id = $5),
     -- Their daily views, read once per article through the primary key and then bucketed (a range of
     -- days per bucket would walk every article's rows of those days through the day index).
     my_views as materialized (
       select date_trunc($2, d.day::timestamp) as local, sum(d.views) as views
         from mine cross join bounds b
         cross join lateral (select v.day, v.views from article_view_days v where v.article_id = mine.id and v.day >= b.start_local::date) d
        group by 1
     )
     select to_char(k.local, 'YYYY-MM-DD') as bucket,
       (select count(*) from articles a, bounds b where ${PUBLISHED} and a.published_at >= k.lo and a.published_at < k.hi) as articles,
       case when $5::int is null
         then (select count(*) from replies r, bounds b where r.created_at >= k.lo and r.created_at < k.hi and r.created_at <= b.now_at and ${publicReplySql('r')})
         else (select count(*) from mine join replies r on r.article_id = mine.id, bounds b
                where r.created_at >= k.lo and r.created_at < k.hi and r.created_at <= b.now_at and ${publicReplySql('r')})
       end as replies,
       case when $5::int is null
         then (select count(*) from users u, bounds b where u.created_at >= k.lo and u.created_at < k.hi and u.created_at <= b.now_at)
       end as users,
       case when $5::int is null
         then (select coalesce(sum(d.views), 0) from article_view_days d where d.day >= k.lo_day and d.day < k.hi_day)
         else coalesce((select v.views from my_views v where v.local = k.local), 0)
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


/** Articles published in the period per category (none = "Uncategorised"), with their replies and views so far. */
export async function loadCategories(payload: Payload, q: StatsQuery): Promise<GroupRow[]> {
  const { rows } = await siteOrDirect(payload, q, CATEGORIES_SITE,
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
  const { rows } = await siteOrDirect(payload, q, TAGS_SITE,
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
  // The whole site: the rollups' copy of the counters has an index in this order (the wide articles
  // table keeps none on view_count, so counting views stays a HOT update there).
  const { rows } = q.scope.kind === 'site' && !q.direct
    ? await aggregate(payload,
      `select d.article_id as id, a.title, d.view_count as views
         from dashboard_articles d join articles a on a.id = d.article_id
        where d.view_count > 0
        order by d.view_count desc, d.article_id
        limit 10`,
      [])
    : await aggregate(payload,
      `select a.id, a.title, a.view_count as views
         from articles a
        where a.view_count > 0 and ($1::int is null or a.author_id = $1)
        order by a.view_count desc, a.id
        limit 10`,
      [q.scope.kind === 'author' ? q.scope.authorId : null])
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
