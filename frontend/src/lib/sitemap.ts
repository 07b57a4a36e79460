/**
 * The sitemap, streamed: the public rows (read by frontend/src/lib/api/sitemap.ts
 * in keyset batches) are written out as XML batch by batch, never collected
 * in memory. Above the protocol's limit of 50,000 URLs per file
 * (SITEMAP_MAX_URLS, lower in tests) /sitemap.xml becomes a sitemap index
 * whose children each hold at most that many.
 */
import type { Payload } from 'payload'

import { getEnv } from '../../../src/lib/env'
import { SITEMAP_KINDS as KINDS, sitemapRows, type SitemapKind as Kind, type SitemapRow as Row, type SitemapRows } from './api/sitemap'
import { escapeXml, xmlSafe } from './xml'

export const SITEMAP_TAGS = 'list,categories,tags'

export function maxUrlsPerSitemap(): number {
  return getEnv().sitemapMaxUrls // validated once, in the typed configuration
}

/** The path of each kind of page. */
const PATHS: Record<Kind, (r: Row) => string> = {
  articles: (r) => `/articles/${r.id}/${r.slug ?? ''}`,
  users: (r) => `/users/${r.id}`,
  categories: (r) => `/categories/${r.slug ?? ''}`,
  tags: (r) => `/tags/${r.slug ?? ''}`,
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
async function startAfter(source: SitemapRows, { kind, index }: Part, max: number): Promise<number> {
  return index === 0 ? 0 : source.idAt(kind, index * max - 1)
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

async function* urlSet(origin: string, source: SitemapRows, fixed: boolean, ranges: Range[]): AsyncGenerator<string> {
  const site = escapeXml(origin)
  yield URLSET_OPEN
  if (fixed) yield FIXED_PATHS.map((p) => urlXml(site, p, null)).join('')
  for (const range of ranges) {
    const path = PATHS[range.kind]
    for await (const rows of source.rows(range.kind, range.after, range.limit)) {
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
  const source = sitemapRows(options.payload)
  const max = options.max ?? maxUrlsPerSitemap()
  const rows = await source.counts()
  const total = FIXED_PATHS.length + KINDS.reduce((n, kind) => n + rows[kind], 0)
  if (total <= max) return xmlResponse(urlSet(site, source, true, KINDS.map((kind) => ({ kind, after: 0 }))))
  return xmlResponse(indexOf(site, 1 + partsOf(rows, max).length))
}

/** /sitemaps/<n>.xml: the n-th file of the index, or null past the end. File 1 holds the fixed pages. */
export async function sitemapPart(site: string, n: number, options: SitemapOptions = {}): Promise<Response | null> {
  if (!Number.isInteger(n) || n < 1) return null
  const source = sitemapRows(options.payload)
  if (n === 1) return xmlResponse(urlSet(site, source, true, []))
  const max = options.max ?? maxUrlsPerSitemap()
  const part = partsOf(await source.counts(), max)[n - 2]
  if (!part) return null
  const after = await startAfter(source, part, max)
  return xmlResponse(urlSet(site, source, false, [{ kind: part.kind, after, limit: max }]))
}
