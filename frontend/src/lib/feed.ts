/** RSS 2.0, Atom and JSON Feed from the latest articles, with the `feed` package. */
import { Feed } from 'feed'

import { getEnv } from '../../../src/lib/env'

import { articlePath, getSettings, latestArticlesWithBody, nameOf } from './api'

export const FEED_TAGS = 'settings,list'

/** Feed readers resolve relative URLs badly: make links and images absolute. */
function absolutize(html: string, site: string): string {
  return html.replace(/(\s(?:href|src))="\/(?!\/)/g, `$1="${site}/`)
}

export async function buildFeed(site: string): Promise<Feed> {
  const [settings, articles] = await Promise.all([getSettings(), latestArticlesWithBody(20)])
  const updated = articles[0]?.updatedAt ? new Date(articles[0].updatedAt) : new Date(0)
  const feed = new Feed({
    title: settings.siteName ?? 'Inkwell',
    description: settings.meta?.description || settings.tagline || undefined,
    id: `${site}/`,
    link: `${site}/`,
    language: 'en',
    updated,
    generator: 'Inkwell',
    copyright: `© ${settings.siteName ?? 'Inkwell'}`,
    feedLinks: { rss: `${site}/rss`, atom: `${site}/atom.xml`, json: `${site}/feed.json` },
  })
  for (const article of articles) {
    const link = site + articlePath(article)
    const category = nameOf(article.category)
    feed.addItem({
      title: article.title,
      id: link,
      link,
      description: article.excerpt ?? undefined,
      content: absolutize(article.html ?? '', site),
      author: nameOf(article.author) ? [{ name: nameOf(article.author)! }] : undefined,
      date: new Date(article.updatedAt),
      published: article.publishedAt ? new Date(article.publishedAt) : undefined,
      category: category ? [{ name: category }] : undefined,
    })
  }
  return feed
}

/** The site's public origin, BASE_URL from the typed configuration (the request's own origin may be an internal address). */
export function siteOrigin(_url?: URL): string {
  return getEnv().baseUrl
}

export function feedResponse(body: string, contentType: string): Response {
  return new Response(body, { headers: { 'content-type': contentType, 'x-cache-tags': FEED_TAGS } })
}
