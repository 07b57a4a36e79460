/**
 * The rows behind the sitemap (frontend/src/lib/sitemap.ts writes them out as
 * XML), read by plain SQL in keyset batches.
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

import { publicArticleSql } from '../../../../collections/Articles/access'
import { poolOf } from '../../../../src/lib/pool'
import { payload as siteInstance } from './payload'

/** Rows per query: small enough to stream steadily, large enough that round trips do not dominate. */
const BATCH = 5_000

export type SitemapRow = { id: number; slug: string | null; lastmod: string | null }
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
  articles: { table: 'articles', where: publicArticleSql('') },
  users: { table: 'users', where: 'true' },
  categories: { table: 'categories', where: 'true' },
  tags: { table: 'tags', where: 'true' },
} as const
export type SitemapKind = keyof typeof SOURCES
/** The order of the URL set: the small fixed pages first, then the large tables. */
export const SITEMAP_KINDS: SitemapKind[] = ['categories', 'tags', 'users', 'articles']

function slugColumn(kind: SitemapKind): string {
  return kind === 'users' ? 'null::text' : 'slug'
}

/** Up to `limit` rows of one source with ids above `after`, by keyset, in batches. */
async function* rowsOf(query: Query, kind: SitemapKind, after: number, limit = Infinity): AsyncGenerator<SitemapRow[]> {
  const { table, where } = SOURCES[kind]
  let left = limit
  while (left > 0) {
    const size = Math.min(BATCH, left)
    const { rows } = await query<SitemapRow>(
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
async function counts(query: Query): Promise<Record<SitemapKind, number>> {
  const columns = SITEMAP_KINDS.map((kind) => `(select count(*) from "${SOURCES[kind].table}" where ${SOURCES[kind].where}) as "${kind}"`)
  const { rows } = await query<Record<SitemapKind, string>>(`select ${columns.join(', ')}`, [])
  return Object.fromEntries(SITEMAP_KINDS.map((k) => [k, Number(rows[0]![k])])) as Record<SitemapKind, number>
}

/** The id of a source's `offset`-th public row (0-based), by one index scan; past the end, the largest id. */
async function idAt(query: Query, kind: SitemapKind, offset: number): Promise<number> {
  const { table, where } = SOURCES[kind]
  const { rows } = await query<{ id: number }>(`select id from "${table}" where ${where} order by id offset $1 limit 1`, [offset])
  return rows[0]?.id ?? Number.MAX_SAFE_INTEGER
}

/** The sitemap's reads on one database: the site's own unless a Payload instance is given (tests). */
export type SitemapRows = {
  counts(): Promise<Record<SitemapKind, number>>
  rows(kind: SitemapKind, after: number, limit?: number): AsyncGenerator<SitemapRow[]>
  idAt(kind: SitemapKind, offset: number): Promise<number>
}

export function sitemapRows(payload?: Payload): SitemapRows {
  const query = queryOf(payload ?? siteInstance())
  return {
    counts: () => counts(query),
    rows: (kind, after, limit) => rowsOf(query, kind, after, limit),
    idAt: (kind, offset) => idAt(query, kind, offset),
  }
}
