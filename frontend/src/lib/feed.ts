/**
 * RSS 2.0, Atom 1.0 and JSON Feed 1.1 from the 20 latest articles.
 *
 * The three formats are written from one neutral model (`FeedData`), each by
 * the rules of its own spec, because each spec types its fields differently
 * and a field read as HTML where it was written as text is how a title like
 * `<img src=x onerror=…>` becomes markup in a reader:
 *
 * | field   | RSS                                 | Atom                  | JSON Feed      |
 * | ------- | ----------------------------------- | --------------------- | -------------- |
 * | title   | text (`<title>`)                    | `type="text"`         | text           |
 * | excerpt | HTML (`<description>`): escaped text | `<summary type="text">` | `summary` text |
 * | body    | HTML (`<content:encoded>`)          | `<content type="html">` | `content_html` |
 *
 * Authors appear by name only (RSS `dc:creator`; RSS `<author>` means an
 * e-mail address, which a feed never publishes). Category and tags are
 * categories in every format. Links are absolute on the public BASE_URL,
 * never on the request's Host header, since feeds are cached and shared.
 */
import { escapeHtml } from '../../../src/lib/escapeHtml'
import { getEnv } from '../../../src/lib/env'
import { getSettings, latestArticlesWithBody, type Article, type Category, type SiteSetting, type Tag, type User } from './api'
import { feedHtml } from './feedHtml'
import { el, xmlDocument } from './xml'

export const FEED_TAGS = 'settings,list'
export const FEED_SIZE = 20

export type FeedTerm = { term: string; label: string; url: string; taxonomy: 'categories' | 'tags' }

export type FeedEntry = {
  /** Permanent: the article's id URL, which redirects to its current slug. */
  id: string
  url: string
  title: string
  /** Plain text. */
  summary: string
  /** The feed form of the article's HTML (see feedHtml). */
  html: string
  published: Date
  updated: Date
  author?: { name: string; url: string }
  terms: FeedTerm[]
}

export type FeedData = {
  site: string
  title: string
  description: string
  language: string
  updated: Date
  entries: FeedEntry[]
}

/** The public address of the site, without a trailing slash. */
export function siteOrigin(): string {
  return getEnv().baseUrl.replace(/\/+$/, '')
}

function populated<T extends object>(ref: unknown): T | undefined {
  return ref && typeof ref === 'object' ? (ref as T) : undefined
}

/** An absolute URL of the site; characters a URL cannot hold (whatever a slug contains) are percent-encoded. */
function siteUrl(site: string, ...segments: (string | number)[]): string {
  return site + segments.map((s) => '/' + encodeURIComponent(String(s).toWellFormed())).join('')
}

function termOf(ref: unknown, taxonomy: FeedTerm['taxonomy'], site: string): FeedTerm | undefined {
  const doc = populated<Category | Tag>(ref)
  if (!doc?.slug) return undefined
  return { term: doc.slug, label: doc.name || doc.slug, url: siteUrl(site, taxonomy, doc.slug), taxonomy }
}

export function feedEntry(article: Article, site: string): FeedEntry {
  const url = siteUrl(site, 'articles', article.id, article.slug ?? '')
  const author = populated<User>(article.author)
  return {
    id: siteUrl(site, 'articles', article.id),
    url,
    title: article.title,
    summary: article.excerpt ?? '',
    html: feedHtml(article.html, url),
    published: new Date(article.publishedAt ?? article.updatedAt),
    updated: new Date(article.updatedAt),
    author: author?.name ? { name: author.name, url: siteUrl(site, 'users', author.id) } : undefined,
    terms: [
      termOf(article.category, 'categories', site),
      ...(article.tags ?? []).map((tag) => termOf(tag, 'tags', site)),
    ].filter((t): t is FeedTerm => !!t),
  }
}

export function feedData(settings: Pick<SiteSetting, 'siteName' | 'tagline' | 'meta' | 'updatedAt'>, articles: Article[], site: string): FeedData {
  const entries = articles.map((article) => feedEntry(article, site))
  const times = [...entries.map((e) => e.updated.getTime()), settings.updatedAt ? Date.parse(settings.updatedAt) : 0]
  return {
    site,
    title: settings.siteName || 'Inkwell',
    description: settings.meta?.description || settings.tagline || '',
    language: 'en',
    updated: new Date(Math.max(...times.filter(Number.isFinite))),
    entries,
  }
}

export async function loadFeed(): Promise<FeedData> {
  const [settings, articles] = await Promise.all([getSettings(), latestArticlesWithBody(FEED_SIZE)])
  return feedData(settings, articles, siteOrigin())
}

const GENERATOR = 'Inkwell'

/** RSS 2.0 (https://www.rssboard.org/rss-specification), with the Atom, Dublin Core and content modules. */
export function rss(feed: FeedData): string {
  const { site } = feed
  const items = feed.entries.map((entry) =>
    el(
      'item',
      {},
      el('title', {}, entry.title),
      el('link', {}, entry.url),
      el('guid', { isPermaLink: 'false' }, entry.id),
      el('pubDate', {}, entry.published.toUTCString()),
      entry.author && el('dc:creator', {}, entry.author.name),
      entry.terms.map((t) => el('category', { domain: `${site}/${t.taxonomy}` }, t.label)),
      // RSS readers take description as HTML: the plain-text excerpt is escaped for HTML first.
      entry.summary && el('description', {}, escapeHtml(entry.summary)),
      el('content:encoded', {}, entry.html),
    ),
  )
  const channel = el(
    'channel',
    {},
    el('title', {}, feed.title),
    el('link', {}, `${site}/`),
    el('description', {}, feed.description || feed.title),
    el('atom:link', { href: `${site}/rss`, rel: 'self', type: 'application/rss+xml' }),
    el('language', {}, feed.language),
    el('lastBuildDate', {}, feed.updated.toUTCString()),
    el('generator', {}, GENERATOR),
    el('docs', {}, 'https://www.rssboard.org/rss-specification'),
    items,
  )
  return xmlDocument(
    el(
      'rss',
      {
        version: '2.0',
        'xmlns:atom': 'http://www.w3.org/2005/Atom',
        'xmlns:dc': 'http://purl.org/dc/elements/1.1/',
        'xmlns:content': 'http://purl.org/rss/1.0/modules/content/',
      },
      channel,
    ),
  )
}

/** Atom 1.0 (RFC 4287). */
export function atom(feed: FeedData): string {
  const { site } = feed
  const entries = feed.entries.map((entry) =>
    el(
      'entry',
      {},
      el('id', {}, entry.id),
      el('title', { type: 'text' }, entry.title),
      el('link', { rel: 'alternate', type: 'text/html', href: entry.url }),
      el('published', {}, entry.published.toISOString()),
      el('updated', {}, entry.updated.toISOString()),
      // Atom requires an author per entry (or for the feed): the site stands in when the name is unknown.
      el('author', {}, el('name', {}, entry.author?.name ?? feed.title), entry.author && el('uri', {}, entry.author.url)),
      entry.terms.map((t) => el('category', { term: t.term, label: t.label, scheme: t.url })),
      entry.summary && el('summary', { type: 'text' }, entry.summary),
      el('content', { type: 'html' }, entry.html),
    ),
  )
  return xmlDocument(
    el(
      'feed',
      { xmlns: 'http://www.w3.org/2005/Atom', 'xml:lang': feed.language },
      el('id', {}, `${site}/`),
      el('title', { type: 'text' }, feed.title),
      feed.description && el('subtitle', { type: 'text' }, feed.description),
      el('updated', {}, feed.updated.toISOString()),
      el('link', { rel: 'alternate', type: 'text/html', href: `${site}/` }),
      el('link', { rel: 'self', type: 'application/atom+xml', href: `${site}/atom.xml` }),
      el('generator', {}, GENERATOR),
      entries,
    ),
  )
}

/** JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/). */
export function jsonFeed(feed: FeedData): string {
  const { site } = feed
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.title,
    home_page_url: `${site}/`,
    feed_url: `${site}/feed.json`,
    ...(feed.description ? { description: feed.description } : {}),
    language: feed.language,
    items: feed.entries.map((entry) => ({
      id: entry.id,
      url: entry.url,
      title: entry.title,
      content_html: entry.html,
      ...(entry.summary ? { summary: entry.summary } : {}),
      date_published: entry.published.toISOString(),
      date_modified: entry.updated.toISOString(),
      ...(entry.author ? { authors: [entry.author] } : {}),
      ...(entry.terms.length ? { tags: [...new Set(entry.terms.map((t) => t.label))] } : {}),
    })),
  })
}

export function feedResponse(body: string, contentType: string): Response {
  return new Response(body, { headers: { 'content-type': contentType, 'x-cache-tags': FEED_TAGS } })
}
