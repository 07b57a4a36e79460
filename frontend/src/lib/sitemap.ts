/**
 * The sitemap, streamed: URLs are read from the API in batches and written as
 * they come, never collected in memory. Above the protocol's limit of 50,000
 * URLs per file (SITEMAP_MAX_URLS, lower in tests) /sitemap.xml becomes a
 * sitemap index whose children each hold at most that many.
 */
import { Readable } from 'node:stream'

import { SitemapIndexStream, SitemapStream } from 'sitemap'

import { getEnv } from '../../../src/lib/env'
import { articlePath, countPublishedArticles, listAll, publishedArticleStubs, type Category, type Tag, type User } from './api'

export const SITEMAP_TAGS = 'list,categories,tags'

type Url = { url: string; lastmod?: string }

export function maxUrlsPerSitemap(): number {
  return getEnv().sitemapMaxUrls // validated once, in the typed configuration
}

async function fixedUrls(): Promise<Url[]> {
  const [categories, tags, users] = await Promise.all([
    listAll<Category>('categories', ['slug', 'updatedAt']),
    listAll<Tag>('tags', ['slug', 'updatedAt']),
    listAll<User>('users', ['updatedAt']),
  ])
  return [
    { url: '/' },
    { url: '/links' },
    ...categories.map((c) => ({ url: `/categories/${c.slug}`, lastmod: c.updatedAt })),
    ...tags.map((t) => ({ url: `/tags/${t.slug}`, lastmod: t.updatedAt })),
    ...users.map((u) => ({ url: `/users/${u.id}`, lastmod: u.updatedAt })),
  ]
}

async function* articleUrls(): AsyncGenerator<Url> {
  for await (const a of publishedArticleStubs()) yield { url: articlePath(a), lastmod: a.updatedAt }
}

/** All public URLs: fixed pages first, then articles by id. */
async function* allUrls(): AsyncGenerator<Url> {
  yield* await fixedUrls()
  yield* articleUrls()
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

async function* slice<T>(source: AsyncIterable<T>, from: number, count: number): AsyncGenerator<T> {
  let i = 0
  for await (const item of source) {
    if (i >= from + count) return
    if (i++ >= from) yield item
  }
}

/** /sitemap.xml: the URL set itself, or an index when there are too many URLs. */
export async function sitemapRoot(site: string): Promise<Response> {
  const max = maxUrlsPerSitemap()
  const total = (await fixedUrls()).length + (await countPublishedArticles())
  if (total <= max) return urlSet(site, allUrls())
  const index = new SitemapIndexStream()
  const parts = Math.ceil(total / max)
  void (async () => {
    for (let n = 1; n <= parts; n++) index.write({ url: `${site}/sitemaps/${n}.xml` })
    index.end()
  })()
  return xmlResponse(index)
}

/** /sitemaps/<n>.xml: the n-th slice of at most SITEMAP_MAX_URLS URLs, or null past the end. */
export async function sitemapPart(site: string, n: number): Promise<Response | null> {
  const max = maxUrlsPerSitemap()
  const total = (await fixedUrls()).length + (await countPublishedArticles())
  if (!Number.isInteger(n) || n < 1 || (n - 1) * max >= total) return null
  return urlSet(site, slice(allUrls(), (n - 1) * max, max))
}
