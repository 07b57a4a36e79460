/**
 * The sitemap, streamed: rows are read by plain SQL in keyset batches and
 * each batch is written out as XML before the next is read, never collected
 * in memory. Above the protocol's limit of 50,000 URLs per file
 * (SITEMAP_MAX_URLS, lower in tests) /sitemap.xml becomes a sitemap index
 * whose children each hold at most that many.
 *
 * Why SQL and not the Local API: a 50,000-URL part read through Payload's
 * find (access rules, hooks, field traversal per document) took ~12 s at
 * 100,000 articles; these read-only queries take a few milliseconds per
 * batch. They select only what the public may see over REST anyway: published
 * articles whose publish time has come (scheduled ones are not public yet),
 * users' profile pages (public), categories and tags (public), and of each
 * only the id, slug and update time.
 */
import type { Payload } from 'payload'

import { publicArticleSql } from '../../../collections/Articles/access'
import { getEnv } from '../../../src/lib/env'
import { poolOf } from '../../../src/lib/pool'
import { sitePayload } from '../../../src/lib/sitePayload'
import { escapeXml, xmlSafe } from './xml'

export const SITEMAP_TAGS = 'list,categories,tags'

/** Rows per query: small enough to stream steadily, large enough that round trips do not dominate. */
const BATCH = 5_000

export function maxUrlsPerSitemap(): number {
  return getEnv().sitemapMaxUrls // validated once, in the typed configuration
}

type Row = { id: number; slug: string | null; lastmod: string | null }
type Query = <R>(text: string, params: unknown[]) => Promise<{ rows: R[] }>

function queryOf(payload: Payload): Query {
  const pool = poolOf(payload)
  return ((text, params) => pool.query(text, params)) as Query
}

/** W3C datetime in UTC, formatted by PostgreSQL (no Date object per row). */
const LASTMOD = `to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`

/**
 * The public rows behind the sitemap, one source per kind of page. `where`
 * is what makes a row public; every source is read by id, so a part is an id
 * range (from, to] and costs what the first part costs however deep it lies.
 */
const SOURCES = {
  articles: { table: 'articles', where: publicArticleSql(''), path: (r: Row) => `/articles/${r.id}/${r.slug ?? ''}` },
  users: { table: 'users', where: 'true', path: (r: Row) => `/users/${r.id}` },
  categories: { table: 'categories', where: 'true', path: (r: Row) => `/categories/${r.slug ?? ''}` },
  tags: { table: 'tags', where: 'true', path: (r: Row) => `/tags/${r.slug ?? ''}` },
} as const
type Kind = keyof typeof SOURCES
/** The order of the URL set: the small fixed pages first, then the large tables. */
const KINDS: Kind[] = ['categories', 'tags', 'users', 'articles']

function slugColumn(kind: Kind): string {
  return kind === 'users' ? 'null::text' : 'slug'
}

/** Up to `limit` rows of one source with ids above `after`, by keyset, in batches. */
async function* rowsOf(query: Query, kind: Kind, after: number, limit = Infinity): AsyncGenerator<Row[]> {
  const { table, where } = SOURCES[kind]
  let left = limit
  while (left > 0) {
    const size = Math.min(BATCH, left)
    const { rows } = await query<Row>(
      `select id, ${slugColumn(kind)} as slug, ${LASTMOD} as lastmod from "${table}"
        where ${where} and id > $1 order by id limit ${size}`,
      [after],
    )
    if (rows.length > 0) yield rows
    if (rows.length < size) return
    left -= rows.length
    after = rows[rows.length - 1]!.id
  }
}

/** How many public rows each source has, in one round trip. */
async function counts(query: Query): Promise<Record<Kind, number>> {
  const columns = KINDS.map((kind) => `(select count(*) from "${SOURCES[kind].table}" where ${SOURCES[kind].where}) as "${kind}"`)
  const { rows } = await query<Record<Kind, string>>(`select ${columns.join(', ')}`, [])
  return Object.fromEntries(KINDS.map((k) => [k, Number(rows[0]![k])])) as Record<Kind, number>
}

/**
 * The files of a sitemap index: file 1 holds the fixed pages, then each
 * source in runs of `max` rows by id, so no file mixes sources. The `index`-th
 * run of a source starts after the id of its (index × max)-th row.
 */
type Part = { kind: Kind; index: number }

function partsOf(rows: Record<Kind, number>, max: number): Part[] {
  return KINDS.flatMap((kind) => Array.from({ length: Math.ceil(rows[kind] / max) }, (_, index) => ({ kind, index })))
}

/** The id a run starts after: 0 for the first, else the last id of the run before (one index scan). */
async function startAfter(query: Query, { kind, index }: Part, max: number): Promise<number> {
  if (index === 0) return 0
  const { table, where } = SOURCES[kind]
  const { rows } = await query<{ id: number }>(`select id from "${table}" where ${where} order by id offset $1 limit 1`, [index * max - 1])
  return rows[0]?.id ?? Number.MAX_SAFE_INTEGER
}

const encoder = new TextEncoder()
const URLSET_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
const INDEX_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'

/** A path of unreserved characters and slashes needs neither percent-encoding nor escaping: nearly all of them. */
const PLAIN_PATH = /^[\w\-.~/]*$/

/**
 * A location as the protocol wants it: percent-encoded (encodeURI leaves the
 * URL's own punctuation alone), then entity-escaped; characters XML forbids
 * (and lone surrogates, which encodeURI refuses) are dropped first. `site` is
 * the origin already escaped (once per file, not per URL).
 */
function loc(site: string, path: string): string {
  return `<loc>${site}${PLAIN_PATH.test(path) ? path : escapeXml(encodeURI(xmlSafe(path)))}</loc>`
}

function urlXml(site: string, path: string, lastmod: string | null): string {
  return `<url>${loc(site, path)}${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>\n`
}

/** The fixed pages that are not a row of any table. */
const FIXED_PATHS = ['/', '/links']

/**
 * An XML response written chunk by chunk as `chunks` yields them: each
 * pull reads one batch, so a slow client slows the reads (backpressure) and
 * memory holds at most two batches: the stream reads one ahead, so the next
 * query runs while the last batch is being sent.
 */
function xmlResponse(chunks: AsyncGenerator<string>): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await chunks.next()
        if (done) controller.close()
        else controller.enqueue(encoder.encode(value))
      } catch (error) {
        controller.error(error)
      }
    },
    async cancel() {
      await chunks.return(undefined)
    },
  }, new CountQueuingStrategy({ highWaterMark: 2 }))
  return new Response(body, { headers: { 'content-type': 'application/xml; charset=utf-8', 'x-cache-tags': SITEMAP_TAGS } })
}

type Range = { kind: Kind; after: number; limit?: number }

async function* urlSet(origin: string, query: Query, fixed: boolean, ranges: Range[]): AsyncGenerator<string> {
  const site = escapeXml(origin)
  yield URLSET_OPEN
  if (fixed) yield FIXED_PATHS.map((p) => urlXml(site, p, null)).join('')
  for (const range of ranges) {
    const { path } = SOURCES[range.kind]
    for await (const rows of rowsOf(query, range.kind, range.after, range.limit)) {
      let xml = ''
      for (const r of rows) xml += urlXml(site, path(r), r.lastmod)
      yield xml
    }
  }
  yield '</urlset>\n'
}

async function* indexOf(origin: string, count: number): AsyncGenerator<string> {
  const site = escapeXml(origin)
  yield INDEX_OPEN
  let xml = ''
  for (let n = 1; n <= count; n++) xml += `<sitemap>${loc(site, `/sitemaps/${n}.xml`)}</sitemap>\n`
  yield xml
  yield '</sitemapindex>\n'
}

/** The Payload instance whose database is read, and the URLs per file: the site's own unless given (tests). */
export type SitemapOptions = { payload?: Payload; max?: number }

/** /sitemap.xml: the URL set itself, or an index when there are too many URLs. */
export async function sitemapRoot(site: string, options: SitemapOptions = {}): Promise<Response> {
  const query = queryOf(options.payload ?? sitePayload().payload)
  const max = options.max ?? maxUrlsPerSitemap()
  const rows = await counts(query)
  const total = FIXED_PATHS.length + KINDS.reduce((n, kind) => n + rows[kind], 0)
  if (total <= max) return xmlResponse(urlSet(site, query, true, KINDS.map((kind) => ({ kind, after: 0 }))))
  return xmlResponse(indexOf(site, 1 + partsOf(rows, max).length))
}

/** /sitemaps/<n>.xml: the n-th file of the index, or null past the end. File 1 holds the fixed pages. */
export async function sitemapPart(site: string, n: number, options: SitemapOptions = {}): Promise<Response | null> {
  if (!Number.isInteger(n) || n < 1) return null
  const query = queryOf(options.payload ?? sitePayload().payload)
  if (n === 1) return xmlResponse(urlSet(site, query, true, []))
  const max = options.max ?? maxUrlsPerSitemap()
  const part = partsOf(await counts(query), max)[n - 2]
  if (!part) return null
  const after = await startAfter(query, part, max)
  return xmlResponse(urlSet(site, query, false, [{ kind: part.kind, after, limit: max }]))
}
