/**
 * The sitemap, streamed: URLs are read from the API in batches and written as
 * they come, never collected in memory. Above the protocol's limit of 50,000
 * URLs per file (SITEMAP_MAX_URLS, lower in tests) /sitemap.xml becomes a
 * sitemap index whose children each hold at most that many.
 */
import { Readable } from 'node:stream'

import { SitemapIndexStream, SitemapStream } from 'sitemap'

import { getEnv } from '../../../src/lib/env'
import { allStubs, articlePath, keysetBoundaries, listAll, publishedArticleStubs, type Category, type Tag } from './api'

export const SITEMAP_TAGS = 'list,categories,tags'

type Url = { url: string; lastmod?: string }

export function maxUrlsPerSitemap(): number {
  return getEnv().sitemapMaxUrls // validated once, in the typed configuration
}

/** The few pages that are not one per row of a large table: home, links, categories, tags. */
async function fixedUrls(): Promise<Url[]> {
  const [categories, tags] = await Promise.all([
    listAll<Category>('categories', ['slug', 'updatedAt']),
    listAll<Tag>('tags', ['slug', 'updatedAt']),
  ])
  return [
    { url: '/' },
    { url: '/links' },
    ...categories.map((c) => ({ url: `/categories/${c.slug}`, lastmod: c.updatedAt })),
    ...tags.map((t) => ({ url: `/tags/${t.slug}`, lastmod: t.updatedAt })),
  ]
}

type Range = { fromId: number; toId?: number }

async function* userUrls(range: Range = { fromId: 0 }): AsyncGenerator<Url> {
  for await (const u of allStubs('users', range)) yield { url: `/users/${u.id}`, lastmod: u.updatedAt }
}

async function* articleUrls(range: Range = { fromId: 0 }): AsyncGenerator<Url> {
  for await (const a of publishedArticleStubs(range)) yield { url: articlePath(a), lastmod: a.updatedAt }
}

/**
 * The files of a sitemap index: the fixed pages in slices, then users and
 * articles in id ranges of at most `max` rows each. Each range is read by
 * keyset (id > from and id <= to), so a part far down the list costs what
 * the first one costs.
 */
type Part = { urls: Url[] } | { kind: 'users' | 'articles'; range: Range }

async function sitemapParts(max: number): Promise<{ parts: Part[]; total: number; fixed: Url[] }> {
  const [fixed, users, articles] = await Promise.all([fixedUrls(), keysetBoundaries('users', max), keysetBoundaries('articles', max)])
  const parts: Part[] = []
  for (let i = 0; i < fixed.length; i += max) parts.push({ urls: fixed.slice(i, i + max) })
  for (const [kind, bounds] of [['users', users], ['articles', articles]] as const) {
    let from = 0
    for (const to of bounds.upperIds) {
      parts.push({ kind, range: { fromId: from, toId: to } })
      from = to
    }
  }
  return { parts, total: fixed.length + users.rows + articles.rows, fixed }
}

async function* fromArray<T>(items: T[]): AsyncGenerator<T> {
  yield* items
}

function xmlResponse(stream: NodeJS.ReadableStream): Response {
  return new Response(Readable.toWeb(stream as Readable) as ReadableStream, {
    headers: { 'content-type': 'application/xml; charset=utf-8', 'x-cache-tags': SITEMAP_TAGS },
  })
}

function urlSet(site: string, urls: AsyncIterable<Url>): Response {
  const stream = new SitemapStream({ hostname: site, xmlns: { news: false, video: false, image: false, xhtml: false } })
  void (async () => {
    try {
      for await (const u of urls) if (!stream.write(u)) await new Promise((r) => stream.once('drain', r))
      stream.end()
    } catch (error) {
      stream.destroy(error as Error)
    }
  })()
  return xmlResponse(stream)
}

/** /sitemap.xml: the URL set itself, or an index when there are too many URLs. */
export async function sitemapRoot(site: string): Promise<Response> {
  const max = maxUrlsPerSitemap()
  const { parts, total, fixed } = await sitemapParts(max)
  if (total <= max) {
    return urlSet(site, (async function* () {
      yield* fixed
      yield* userUrls()
      yield* articleUrls()
    })())
  }
  const index = new SitemapIndexStream()
  void (async () => {
    for (let n = 1; n <= parts.length; n++) index.write({ url: `${site}/sitemaps/${n}.xml` })
    index.end()
  })()
  return xmlResponse(index)
}

/** /sitemaps/<n>.xml: the n-th file of the index, or null past the end. */
export async function sitemapPart(site: string, n: number): Promise<Response | null> {
  if (!Number.isInteger(n) || n < 1) return null
  const { parts } = await sitemapParts(maxUrlsPerSitemap())
  const part = parts[n - 1]
  if (!part) return null
  if ('urls' in part) return urlSet(site, fromArray(part.urls))
  return urlSet(site, part.kind === 'users' ? userUrls(part.range) : articleUrls(part.range))
}
