/**
 * Full-text search of articles in PostgreSQL, no external engine.
 *
 * Index: the table `article_search` (migration 20261123_150000_search), one
 * narrow row per article: its status, publish time and a tsvector of title
 * (weight A), excerpt (B) and body text (C), with a GIN index. Matching and
 * ranking read only that table, never the wide `articles` rows (HTML,
 * Markdown, JSON content inline); the page's few hits are then read from
 * `articles` for titles and snippets. It is written by the article hooks
 * inside the saving transaction and by `reindex-search`, never by Payload
 * (it is not a collection).
 *
 * Tokens: the `simple` configuration (no stemming, no stop words), so code
 * identifiers such as `useEffect` or `pg_notify` stay searchable. PostgreSQL's
 * parser does not split Chinese (or Japanese) words, so runs of those scripts
 * are segmented here, at save time and at query time alike, with the ICU word
 * segmenter built into Node (Intl.Segmenter): the same dictionary on both
 * sides means a query splits as the text did.
 *
 * Ranking (migration 20261124_190000_search_rank) reads `rank_vector`, the
 * title and excerpt lexemes only (a stored generated column, ts_filter of the
 * vector to weights A and B, kept inline): a few hundred bytes instead of the
 * whole body's vector, which lives in TOAST and is never read for ranking.
 * Title matches come first, then matches in the excerpt, then matches only in
 * the body, the newest first within each.
 */
import type { Payload } from 'payload'

import { sql } from '@payloadcms/db-postgres'

import { publicArticleSql } from '../../../collections/Articles/access'
import { poolOf, withLocalSettings } from '../../lib/pool'
import { escapeHtml } from '../../lib/escapeHtml'
import { t, type MessageKey, type Params, type Translate } from '../../lib/i18n'

/** Longest query accepted, checked before any other processing. */
export const MAX_QUERY_LENGTH = 200
/**
 * Ranking looks at this many matches at most (the newest): user input never
 * costs more. Past it the count is shown as "200+", as big sites do: a word in
 * 10% of 100,000 articles would otherwise make every search read 10,000 rows.
 * Picking the newest N matches by the publish-time index reads about N / (share
 * of articles matching) rows, each with its vector from TOAST, so N is what
 * bounds the slow middle (words in 1–20% of articles).
 */
export const MAX_RANKED = 200
/** The admin's list search narrows its query to at most this many matching ids. */
export const MAX_ADMIN_MATCHES = 1000
export const MAX_LIMIT = 50
/** A body's indexed text is cut here: a tsvector holds at most 1 MB. */
const MAX_BODY_TEXT = 200_000
/** A snippet is looked for in this much of the body. */
const MAX_HEADLINE_TEXT = 20_000

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3005\u30fc]+/gu
const CJK_CHAR = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3005\\u30fc\\u3000-\\u303f\\uff01-\\uff0f\\uff1a-\\uff20]'
/** A space this module put between two CJK words (ignoring highlight markers), to be taken out again for display. */
const INSERTED_SPACE = new RegExp(`(?<=${CJK_CHAR}[\\uE000\\uE001]?) (?=[\\uE000\\uE001]?${CJK_CHAR})`, 'gu')
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })

/** Puts spaces between the words of Chinese and Japanese runs, so PostgreSQL's parser sees words. */
export function segmentCjk(text: string): string {
  return text.replace(CJK_RUN, (run) => {
    if (run.length === 1) return ` ${run} `
    const words = Array.from(segmenter.segment(run), (s) => s.segment)
    return ` ${words.join(' ')} `
  })
}

/**
 * Text as PostgreSQL's parser should see it: words of Chinese and Japanese
 * runs apart, and `<` followed by a letter spaced, or the parser would take
 * `<script>` or `Page<T>` in a code sample for a tag and drop it from the index
 * and the snippets (highlightHtml takes the space out again).
 */
export function parserText(text: string): string {
  return segmentCjk(text).replace(/<(?=[A-Za-z/!?])/g, '< ')
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/**
 * Plain text of the stored, already sanitized HTML, in one linear pass of
 * regular expressions (no parser: reindexing 100,000 articles must be quick).
 * Block ends become spaces, so words of adjacent blocks stay apart.
 */
export function htmlToText(html: string): string {
  return html
    .replace(/<\/(?:p|div|li|h[1-6]|pre|blockquote|td|th|tr|figcaption)>|<br\s*\/?>/gi, ' ')
    .replace(/<[^<>]*>/g, '') // [^<>]: each try stops at the next `<`, so the pass stays linear
    .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (entity, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' '
    })
}

/** Plain, segmented text of rendered HTML, for the index and for snippets. */
export function searchableText(html: string | null | undefined, max = MAX_BODY_TEXT): string {
  if (!html) return ''
  return parserText(htmlToText(html).slice(0, max)).replace(/\s+/g, ' ').trim()
}

export type SearchDocument = { title: string; excerpt: string; body: string }

export function searchDocumentOf(article: { title?: string | null; excerpt?: string | null; html?: string | null }): SearchDocument {
  return {
    title: parserText(article.title ?? '').trim(),
    excerpt: parserText(article.excerpt ?? '').trim(),
    body: searchableText(article.html),
  }
}

/** The one definition of an article's vector, as SQL over three text expressions. */
const VECTOR_SQL = (title: string, excerpt: string, body: string) =>
  `setweight(to_tsvector('simple', coalesce(${title}, '')), 'A') || ` +
  `setweight(to_tsvector('simple', coalesce(${excerpt}, '')), 'B') || ` +
  `setweight(to_tsvector('simple', coalesce(${body}, '')), 'C')`

type Executor = { execute: (query: unknown) => Promise<unknown> }

/** Status and publish time are copied from the article's row as it stands (in the writing transaction). */
const UPSERT_SQL = `on conflict (article_id) do update
  set status = excluded.status, published_at = excluded.published_at, vector = excluded.vector`

/**
 * Writes one article's search row through `db` (the writing transaction, when
 * there is one): its vector, and its status and publish time as the article
 * row holds them.
 */
export async function indexArticle(db: Executor, id: number, doc: SearchDocument): Promise<void> {
  await db.execute(
    sql`insert into article_search (article_id, status, published_at, vector)
        select a.id, a.status, a.published_at, ${sql.raw(VECTOR_SQL('t.title', 't.excerpt', 't.body'))}
          from articles a, (select ${doc.title}::text as title, ${doc.excerpt}::text as excerpt, ${doc.body}::text as body) t
         where a.id = ${id}
        ${sql.raw(UPSERT_SQL)}`,
  )
}

/** Writes the search rows of many articles in one statement (through `db`: a transaction's client, else the pool). */
export async function indexArticles(payload: Payload, rows: ({ id: number } & SearchDocument)[], db: Queryable = pool(payload)): Promise<void> {
  if (rows.length === 0) return
  await db.query(
    `insert into article_search (article_id, status, published_at, vector)
     select a.id, a.status, a.published_at, ${VECTOR_SQL('d.title', 'd.excerpt', 'd.body')}
       from unnest($1::int[], $2::text[], $3::text[], $4::text[]) as d(id, title, excerpt, body)
       join articles a on a.id = d.id
     ${UPSERT_SQL}`,
    [rows.map((r) => r.id), rows.map((r) => r.title), rows.map((r) => r.excerpt), rows.map((r) => r.body)],
  )
}

type Queryable = { query: <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<{ rows: R[] }> }
export type Pool = Queryable & { connect?: () => Promise<Queryable & { release: () => void }> }

export function pool(payload: Payload): Pool {
  return poolOf(payload)
}

// ---- queries -----------------------------------------------------------------

/**
 * A mistake in the search parameters: answered 400, naming the parameter. It
 * carries its catalog message, for each caller to word in its reader's
 * language (`messageIn`); `message` is the English, for logs.
 */
export class SearchQueryError extends Error {
  status = 400
  constructor(
    public field: string,
    readonly key: MessageKey,
    readonly params: Params = {},
  ) {
    super(t('en', key, params))
    this.name = 'SearchQueryError'
  }

  messageIn(translate: Translate): string {
    return translate(this.key, this.params)
  }
}

export type ParsedQuery = {
  /** What the visitor typed, cleaned: shown back in the search box. */
  text: string
  /** Input for websearch_to_tsquery (quotes, OR and - work), without the prefix word. */
  websearch: string
  /** The last word, matched as a prefix while the visitor is still typing it. */
  prefix?: string
}

/**
 * Cleans the visitor's query. The length is checked first, before any other
 * work; control characters (U+0000 included, which PostgreSQL cannot store),
 * unpaired surrogates and private-use characters (our highlight markers) become spaces.
 */
export function parseQuery(raw: unknown): ParsedQuery {
  const input = typeof raw === 'string' ? raw : Array.isArray(raw) ? String(raw[0] ?? '') : ''
  if (input.length > MAX_QUERY_LENGTH) {
    throw new SearchQueryError('q', 'search.tooLong', { max: MAX_QUERY_LENGTH })
  }
  const text = input
    .toWellFormed()
    .normalize('NFKC')
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cs}\uFFFD]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  const segmented = parserText(text).replace(/\s+/g, ' ').trim()
  // The last word is a prefix only when it is plainly a word being typed: not quoted,
  // not negated, not an OR operand, not CJK, and long enough to keep the index lookup small.
  const last = /(?:^|\s)([\p{L}\p{N}_]{3,})$/u.exec(segmented)
  const quotesBalanced = (segmented.match(/"/g)?.length ?? 0) % 2 === 0
  const before = last ? segmented.slice(0, last.index).trim() : ''
  if (last && quotesBalanced && !/(?:^|\s)or$/i.test(before) && !new RegExp(CJK_CHAR, 'u').test(last[1]!)) {
    return { text, websearch: before, prefix: last[1]!.toLowerCase() }
  }
  return { text, websearch: segmented }
}

export type SearchParams = {
  q?: unknown
  category?: unknown
  tag?: unknown
  page?: unknown
  limit?: unknown
}

export type SearchHit = {
  id: number
  title: string
  slug: string | null
  excerpt: string | null
  publishedAt: string | null
  /** The title with matches in <mark>, HTML-escaped. */
  titleHtml: string
  /** A passage of the body with matches in <mark>, HTML-escaped. */
  snippetHtml: string
  author: { id: number; name: string } | null
  category: { id: number; name: string; slug: string } | null
  tags: { id: number; name: string; slug: string }[]
}

export type SearchResult = {
  q: string
  category: string | null
  tag: string | null
  docs: SearchHit[]
  /** Matches, at most MAX_RANKED; `capped` says there are more (shown as "200+"). */
  totalDocs: number
  capped: boolean
  page: number
  limit: number
  totalPages: number
  hasPrevPage: boolean
  hasNextPage: boolean
  /** Why there is nothing to show, when the query had no words to look for: a catalog key, worded by the caller. */
  notice?: 'search.noWords'
}

function positiveInt(value: unknown, field: string, fallback: number, max: number): number {
  if (value === undefined || value === null || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new SearchQueryError(field, 'search.wholeNumber', { field, max })
  }
  return n
}

function slugParam(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') return null
  if (typeof value !== 'string' || value.length > 200) throw new SearchQueryError(field, 'search.slug', { field })
  return value
}

/** The tsquery of a parsed query, as SQL over parameters $1 (websearch text) and $2 (prefix word or null). */
const TSQUERY_SQL = `(websearch_to_tsquery('simple', $1) && coalesce(to_tsquery('simple', $2 || ':*'), ''::tsquery))`

/**
 * Published articles matching the query, best first: matches in the title
 * ahead of matches only in the text, then by rank, the newest first on ties.
 * Drafts and articles scheduled for later never appear, whoever asks.
 */
export async function searchArticles(
  payload: Payload,
  params: SearchParams,
  /** For tests: a smaller cap than MAX_RANKED, a given plan, a given window (newest articles looked at first). */
  options: { maxRanked?: number; plan?: SearchPlan; window?: number } = {},
): Promise<SearchResult> {
  const maxRanked = options.maxRanked ?? MAX_RANKED
  const parsed = parseQuery(params.q)
  const limit = positiveInt(params.limit, 'limit', 10, MAX_LIMIT)
  const page = positiveInt(params.page, 'page', 1, Math.ceil(maxRanked / limit))
  const category = slugParam(params.category, 'category')
  const tag = slugParam(params.tag, 'tag')
  const empty: SearchResult = {
    q: parsed.text, category, tag, docs: [], totalDocs: 0, capped: false, page, limit, totalPages: 0, hasPrevPage: page > 1, hasNextPage: false,
  }
  if (!parsed.text) return empty

  const db = pool(payload)
  const values: unknown[] = [parsed.websearch, parsed.prefix ?? null]
  const filters: string[] = []
  if (category) {
    values.push(category)
    filters.push(`and exists (select 1 from articles a where a.id = s.article_id
                               and a.category_id = (select id from categories where slug = $${values.length}))`)
  }
  if (tag) {
    values.push(tag)
    filters.push(`and exists (select 1 from articles_rels r join tags t on t.id = r.tags_id
                               where r.parent_id = s.article_id and r.path = 'tags' and t.slug = $${values.length})`)
  }
  // One row past the cap tells "exactly the cap" from "more than the cap".
  values.push(maxRanked + 1, limit, (page - 1) * limit)
  const n = values.length
  const { rows: words } = await db.query<{ words: number; articles: number }>(
    `select numnode(${TSQUERY_SQL}) as words,
            (select greatest(reltuples, 0) from pg_class where oid = 'article_search'::regclass) as articles`,
    values.slice(0, 2),
  )
  if (!words[0]?.words) return { ...empty, notice: 'search.noWords' }
  // How many published rows match (in the category or tag asked for), as the planner
  // estimates them from the index's statistics (lexeme frequencies): a plan, not a scan.
  const { rows: estimate } = await db.query<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(
    `explain (format json) select from article_search s
      where s.vector @@ ${TSQUERY_SQL} and ${publicArticleSql('s')} ${filters.join(' ')}`,
    values.slice(0, n - 3),
  )
  const matches = Number(estimate[0]?.['QUERY PLAN']?.[0]?.Plan?.['Plan Rows'] ?? 0)
  const plan = options.plan ?? planOf(matches, Number(words[0].articles), maxRanked)

  // The newest MAX_RANKED matches are ranked, all from the narrow article_search table,
  // by their small rank_vector (title and excerpt): the body's vector is only matched
  // through the GIN index, never detoasted for ranking. The tsquery is written inline,
  // never in a CTE, so the planner folds it to a constant and sees how common its words are.
  const hits = (since: Date | null) =>
    queryWithPlan<{ id: number; total: string }>(
      db,
      plan,
      `with hits as materialized (
         select s.article_id as id, s.published_at, s.rank_vector
           from article_search s
          where s.vector @@ ${TSQUERY_SQL} and ${publicArticleSql('s')}
                ${since ? `and s.published_at >= $${n + 1}::timestamptz` : ''}
                ${filters.join('\n                ')}
          order by s.published_at desc
          limit $${n - 2})
       select h.id, count(*) over () as total
         from hits h
        order by ts_filter(h.rank_vector, '{a}') @@ ${TSQUERY_SQL} desc, ts_rank(h.rank_vector, ${TSQUERY_SQL}) desc,
                 h.published_at desc, h.id desc
        limit $${n - 1} offset $${n}`,
      since ? [...values, since] : values,
    )
  // All matches of a common word are only wanted for their newest few: looked for first among the
  // newest articles (a window), and everywhere only if the window held fewer than the cap.
  const window = options.window ?? (plan === 'all-matches' ? windowOf(matches, Number(words[0].articles), maxRanked) : null)
  const since = window ? await windowStart(db, window) : null
  let { rows } = await hits(since)
  if (since && Number(rows[0]?.total ?? 0) <= maxRanked) rows = (await hits(null)).rows
  let total = Number(rows[0]?.total ?? 0)
  if (rows.length === 0 && page > 1) {
    // Past the last page: the count still says how many there are.
    const { rows: counted } = await db.query<{ total: string }>(
      `select count(*) as total from (select 1 from article_search s
        where s.vector @@ ${TSQUERY_SQL} and ${publicArticleSql('s')} ${filters.join(' ')} limit $${n - 2}) m`,
      values.slice(0, n - 2),
    )
    total = Number(counted[0]?.total ?? 0)
  }
  // The query reads one match past the cap to count it; no page shows more than the cap.
  const shown = rows.slice(0, Math.max(0, maxRanked - (page - 1) * limit))
  const docs = await hitsOf(payload, shown.map((r) => Number(r.id)), values.slice(0, 2))
  const capped = total > maxRanked
  const totalDocs = Math.min(total, maxRanked)
  const totalPages = Math.ceil(totalDocs / limit)
  return { ...empty, docs, totalDocs, capped, totalPages, hasNextPage: page < totalPages }
}

export type SearchPlan = 'newest-first' | 'all-matches'

/**
 * How to find the newest `maxRanked` published matches:
 * - `newest-first`: walk the publish-time index from now backwards, testing each
 *   article's vector, until enough match. It reads about maxRanked × articles / matches
 *   rows, and each test reads that row's vector from TOAST (≈ 4 buffers).
 * - `all-matches`: the GIN index's matches, all of them, then the newest of those:
 *   about one heap page per match, and no vector read.
 * PostgreSQL's planner prices the vector test as one cheap operator, not a TOAST read,
 * so for words in about 1–15% of articles it walks the time index through thousands of
 * vectors (a word in 3% of 100,000: 6,300 rows, 26,000 buffers). The break-even,
 * matches² ≈ 9 × maxRanked × articles (4 buffers per tested row, ~0.45 pages per match),
 * is decided here from the planner's own estimate of the matches instead.
 */
export function planOf(matches: number, articles: number, maxRanked: number): SearchPlan {
  return matches * matches > 9 * (maxRanked + 1) * articles ? 'newest-first' : 'all-matches'
}

/** How many times the expected number of articles the window holds: the estimate of the matches is the planner's. */
const WINDOW_MARGIN = 3
/**
 * The largest window: finding its start walks its index entries (~1.5 ms per 20,000), and a window
 * that holds fewer matches than the cap costs a second query. So only words in a few percent of the
 * articles or more get one; a word the planner can only guess at (a prefix of a rare word is
 * estimated at ~0.4%) keeps the plain all-matches plan, whose pages are then few.
 */
const MAX_WINDOW = 20_000

/**
 * How many of the newest articles a common word's all-matches plan looks at first, or null when
 * a window would not pay. The GIN index gives every match, and each match costs a heap page for
 * its publish time (a word in 4% of 1,000,000 articles: 40,000 matches, 28,000 pages, ~160 ms),
 * though only the newest `maxRanked` are ranked. Bounded by `published_at >= start`, the planner
 * ANDs the GIN bitmap with the publish-time index's bitmap (BitmapAnd) and visits only the
 * window's matches: about WINDOW_MARGIN × maxRanked pages (~600 instead of 28,000).
 */
export function windowOf(matches: number, articles: number, maxRanked: number): number | null {
  const rows = Math.ceil((WINDOW_MARGIN * (maxRanked + 1) * articles) / Math.max(matches, 1))
  // Few matches (few pages), a window of most of the site (it would save nothing), or a costly window.
  return matches <= WINDOW_MARGIN * (maxRanked + 1) || rows >= articles / 2 || rows > MAX_WINDOW ? null : rows
}

/** The publish time of the window's last public article (an index-only walk, ~1 ms per 15,000), or null past the end. */
async function windowStart(db: Pool, rows: number): Promise<Date | null> {
  const { rows: found } = await db.query<{ published_at: Date }>(
    `select s.published_at from article_search s where ${publicArticleSql('s')} order by s.published_at desc offset $1 limit 1`,
    [rows - 1],
  )
  return found[0]?.published_at ?? null
}

/** Runs `text` with the planner held to `plan` (all-matches: GIN bitmap only, never a scan of every vector). */
async function queryWithPlan<R>(db: Pool, plan: SearchPlan, text: string, values: unknown[]): Promise<{ rows: R[] }> {
  const connect = db.connect?.bind(db)
  if (plan === 'newest-first' || !connect) return db.query<R>(text, values)
  return withLocalSettings({ connect }, 'begin; set local enable_indexscan = off; set local enable_seqscan = off', (client) => client.query<R>(text, values))
}

type HitRow = {
  id: number
  title: string
  slug: string | null
  excerpt: string | null
  html: string | null
  published_at: Date | null
  author_id: number | null
  author_name: string | null
  category_id: number | null
  category_name: string | null
  category_slug: string | null
  tags: { id: number; name: string; slug: string }[] | null
}

/**
 * The page's articles with highlighted title and snippet, in rank order. The
 * article rows are checked again (published, not scheduled): a hit never
 * shows what the article itself would not.
 */
async function hitsOf(payload: Payload, ids: number[], queryValues: unknown[]): Promise<SearchHit[]> {
  if (ids.length === 0) return []
  const db = pool(payload)
  const { rows } = await db.query<HitRow>(
    `select a.id, a.title, a.slug, a.excerpt, left(a.html, 400000) as html, a.published_at,
            u.id as author_id, u.name as author_name, c.id as category_id, c.name as category_name, c.slug as category_slug,
            (select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by r."order")
               from articles_rels r join tags t on t.id = r.tags_id where r.parent_id = a.id and r.path = 'tags') as tags
       from articles a
       left join users u on u.id = a.author_id
       left join categories c on c.id = a.category_id
      where a.id = any($1::int[]) and ${publicArticleSql('a')}`,
    [ids],
  )
  const byId = new Map(rows.map((r) => [r.id, r]))
  const ordered = ids.map((id) => byId.get(id)).filter((r): r is HitRow => !!r)
  // Stored text holds no markers (stripped on save); rows saved before that rule are cleaned here too.
  const titles = ordered.map((r) => parserText(r.title).replace(HIGHLIGHT_MARKERS, '').trim())
  const bodies = ordered.map((r) => (searchableText(r.html, MAX_HEADLINE_TEXT) || parserText(r.excerpt ?? '').trim()).replace(HIGHLIGHT_MARKERS, ''))
  // Markers are private-use characters, which parseQuery and the text never carry through (see above):
  // the headline is escaped as a whole and only then do the markers become <mark> tags.
  const { rows: headlines } = await db.query<{ title: string; body: string }>(
    `select ts_headline('simple', t.title, q.q, 'HighlightAll=true, StartSel=${START}, StopSel=${STOP}') as title,
            ts_headline('simple', t.body, q.q, 'MaxWords=35, MinWords=15, MaxFragments=2, FragmentDelimiter=" … ", StartSel=${START}, StopSel=${STOP}') as body
       from unnest($3::text[], $4::text[]) with ordinality as t(title, body, n), (select ${TSQUERY_SQL} as q) q
      order by t.n`,
    [...queryValues, titles, bodies],
  )
  return ordered.map((r, i) => ({
    id: r.id,
    title: r.title,
    slug: r.slug,
    excerpt: r.excerpt,
    publishedAt: r.published_at ? new Date(r.published_at).toISOString() : null,
    titleHtml: highlightHtml(headlines[i]?.title ?? r.title),
    snippetHtml: highlightHtml(headlines[i]?.body ?? ''),
    author: r.author_id ? { id: r.author_id, name: r.author_name ?? '' } : null,
    category: r.category_id ? { id: r.category_id, name: r.category_name ?? '', slug: r.category_slug ?? '' } : null,
    tags: r.tags ?? [],
  }))
}

const START = '\uE000'
const STOP = '\uE001'
/** The highlight markers: private-use characters no stored article text may hold (stripHighlightMarkers.ts removes them on save). */
export const HIGHLIGHT_MARKERS = /[\uE000\uE001]/g

/** A headline as safe HTML: everything escaped, then the markers turned into <mark>, the spaces segmentation added removed. */
export function highlightHtml(headline: string): string {
  const text = headline.replace(INSERTED_SPACE, '').replace(/<\s+(?=[\uE000\uE001]?[A-Za-z/!?])/g, '<').replace(/\s+/g, ' ').trim()
  const escaped = escapeHtml(text)
  let open = false
  const marked = escaped.replace(/[\uE000\uE001]/g, (m) => {
    if (m === START && !open) return (open = true), '<mark>'
    if (m === STOP && open) return (open = false), '</mark>'
    return ''
  })
  // Words segmentation split (博 客) read as one highlight.
  return (open ? marked + '</mark>' : marked).replace(/<\/mark><mark>/g, '')
}

// ---- the admin's list search ------------------------------------------------

/**
 * Ids of articles of any status whose text matches, newest first, at most
 * MAX_ADMIN_MATCHES: the admin's list search narrows its own query to these (access
 * rules and the list's sort still apply).
 */
export async function matchingArticleIds(payload: Payload, raw: unknown): Promise<number[]> {
  const parsed = parseQuery(typeof raw === 'string' ? raw.replace(/^%|%$/g, '').slice(0, MAX_QUERY_LENGTH) : raw)
  if (!parsed.text) return []
  const { rows } = await pool(payload).query<{ id: number }>(
    `select s.article_id as id from article_search s where s.vector @@ ${TSQUERY_SQL} order by s.article_id desc limit ${MAX_ADMIN_MATCHES}`,
    [parsed.websearch, parsed.prefix ?? null],
  )
  return rows.map((r) => Number(r.id))
}
