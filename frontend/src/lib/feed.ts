/**
 * RSS 2.0, Atom 1.0 and JSON Feed 1.1 from the 20 latest articles.
 *
 * The three formats are written from one neutral model (`FeedData`), RSS and
 * Atom by the `feed` package, each by the rules of its own spec, because each spec types its fields differently
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
import { DOMParser, XMLSerializer, type Element as XmlElement } from '@xmldom/xmldom'
import { Feed, type Extension } from 'feed'
import { LRUCache } from 'lru-cache'

import { escapeHtml } from '../../../src/lib/escapeHtml'
import { getEnv } from '../../../src/lib/env'
import { withoutTrailingSlashes } from '../../../src/lib/trimEnd'
import { getSettings, latestArticlesWithBody, type Article, type Category, type SiteSetting, type Tag, type User } from './api'
import { feedHtml } from './feedHtml'
import { xmlSafe } from './xml'

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
  /** The article's own language tag (zh-CN, en …), when it has one. */
  language?: string
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
  return withoutTrailingSlashes(getEnv().baseUrl)
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

/**
 * Feed bodies by article URL, kept with the HTML they were made from:
 * rewriting one parses the whole HTML (about a millisecond for a page of
 * highlighted code; 20 per feed, three feeds), comparing two strings does not.
 * Keyed on the content itself, not the article's update time, so a body
 * changed by any path is rewritten.
 */
const feedBodies = new LRUCache<string, { html: string; feed: string }>({
  // Feeds show the 20 newest articles: room for them while others are published.
  max: 100,
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (entry) => Math.max(1, entry.html.length + entry.feed.length),
})

function feedBodyOf(html: string | null | undefined, url: string): string {
  if (!html) return ''
  const kept = feedBodies.get(url)
  if (kept?.html === html) return kept.feed
  const feed = feedHtml(html, url)
  feedBodies.set(url, { html, feed })
  return feed
}

export function feedEntry(article: Article, site: string): FeedEntry {
  const url = siteUrl(site, 'articles', article.id, article.slug ?? '')
  const author = populated<User>(article.author)
  return {
    id: siteUrl(site, 'articles', article.id),
    url,
    title: article.title,
    summary: article.excerpt ?? '',
    html: feedBodyOf(article.html, url),
    published: new Date(article.publishedAt ?? article.updatedAt),
    updated: new Date(article.updatedAt),
    author: author?.name ? { name: author.name, url: siteUrl(site, 'users', author.id) } : undefined,
    terms: [
      termOf(article.category, 'categories', site),
      ...(article.tags ?? []).map((tag) => termOf(tag, 'tags', site)),
    ].filter((t): t is FeedTerm => !!t),
    ...(article.language ? { language: article.language } : {}),
  }
}

export function feedData(settings: Pick<SiteSetting, 'siteName' | 'tagline' | 'meta' | 'updatedAt' | 'defaultLanguage'>, articles: Article[], site: string): FeedData {
  const entries = articles.map((article) => feedEntry(article, site))
  const times = [...entries.map((e) => e.updated.getTime()), settings.updatedAt ? Date.parse(settings.updatedAt) : 0]
  return {
    site,
    title: settings.siteName || 'Inkwell',
    description: settings.meta?.description || settings.tagline || '',
    // The site's language; each entry states its own where it has one.
    language: settings.defaultLanguage || 'en',
    updated: new Date(Math.max(...times.filter(Number.isFinite))),
    entries,
  }
}

export async function loadFeed(): Promise<FeedData> {
  const [settings, articles] = await Promise.all([getSettings(), latestArticlesWithBody(FEED_SIZE)])
  return feedData(settings, articles, siteOrigin())
}

const GENERATOR = 'Inkwell'
const DC = 'http://purl.org/dc/elements/1.1/'
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace'

/*
 * RSS and Atom are written by the `feed` package. What it does with the
 * strings it is given (it writes through xml-js), and what the helpers below
 * give it so that the document says exactly what the model holds:
 *
 * - Element text is escaped for `&`, `<` and `>`, but every `&amp;` is first
 *   turned back into `&` ("to avoid double sanitization"), so a title that
 *   literally says "&amp;" would lose its "amp;". `text()` escapes `&` first,
 *   which makes that undo exact.
 * - CDATA (RSS title, description and content:encoded; Atom title, summary
 *   and content) is written raw, and only the first `]]>` is split: a second
 *   one would end the section and let the rest be read as markup. HTML gets
 *   `]]&gt;`, the same characters to an HTML parser (`cdataHtml()`); plain
 *   text given as HTML is escaped (`htmlText()`), so it never holds `>`.
 * - Attribute values: feed escapes `&` in URLs and in Atom category terms and
 *   labels, xml-js escapes `"`, nothing escapes `<`. `attribute()` is for the
 *   values feed passes through untouched (RSS category domain).
 * - Nothing drops the characters XML forbids: every string goes through
 *   xmlSafe first, whatever the database holds.
 */
function text(value: string): string {
  return xmlSafe(value).replaceAll('&', '&amp;')
}
function htmlText(value: string): string {
  return escapeHtml(xmlSafe(value))
}
function cdataHtml(html: string): string {
  return xmlSafe(html).replaceAll(']]>', ']]&gt;')
}
function attribute(value: string): string {
  return xmlSafe(value).replaceAll('&', '&amp;').replaceAll('<', '&lt;')
}

/** RSS 2.0 (https://www.rssboard.org/rss-specification), with the Atom, Dublin Core and content modules. */
export function rss(feed: FeedData): string {
  const { site } = feed
  const writer = new Feed({
    title: text(feed.title),
    link: `${site}/`,
    description: text(feed.description || feed.title),
    feedLinks: { rss: `${site}/rss` }, // <atom:link rel="self">
    language: feed.language,
    updated: feed.updated,
    generator: GENERATOR,
    docs: 'https://www.rssboard.org/rss-specification',
  })
  for (const entry of feed.entries) {
    const content = cdataHtml(entry.html)
    const creator: Extension['objects'] = { _text: text(entry.author?.name ?? '') }
    const language: Extension['objects'] = { _text: text(entry.language ?? '') }
    // feed declares the dc prefix on <rss> only when an item has content:encoded.
    if (!content) creator._attributes = language._attributes = { 'xmlns:dc': DC }
    writer.addItem({
      title: htmlText(entry.title), // replaced by the extension below, which keeps only its place among the item's elements
      link: entry.url,
      guid: text(entry.id), // written with isPermaLink="false"
      date: entry.updated,
      published: entry.published, // pubDate
      // RSS readers take description as HTML: the plain-text excerpt is escaped for HTML first.
      description: entry.summary ? htmlText(entry.summary) : undefined,
      content: content || undefined,
      // No `author`: RSS <author> is an e-mail address, which a feed never publishes; the name is dc:creator.
      category: entry.terms.map((t) => ({ name: text(t.label), domain: attribute(`${site}/${t.taxonomy}`) })),
      extensions: [
        // feed writes the title as CDATA, where it splits only the first `]]>` (see above): an item
        // extension of the same name replaces that element in place with text xml-js escapes fully.
        { name: 'title', objects: { _text: text(entry.title) } },
        ...(entry.author ? [{ name: 'dc:creator', objects: creator }] : []),
        // RSS has no per-item language: Dublin Core's says each article's.
        ...(entry.language ? [{ name: 'dc:language', objects: language }] : []),
      ],
    })
  }
  return writer.rss2()
}

/** Atom 1.0 (RFC 4287). */
export function atom(feed: FeedData): string {
  const { site } = feed
  const writer = new Feed({
    id: text(`${site}/`),
    title: text(feed.title), // no type attribute: text
    description: feed.description ? text(feed.description) : undefined, // <subtitle>, text
    link: `${site}/`,
    feedLinks: { atom: `${site}/atom.xml` },
    updated: feed.updated,
    generator: GENERATOR,
  })
  for (const entry of feed.entries) {
    writer.addItem({
      // feed writes these two as type="html": escaped, they are valid as such, and textConstructs() makes them text.
      title: htmlText(entry.title),
      description: entry.summary ? htmlText(entry.summary) : undefined,
      id: entry.id,
      link: entry.url,
      date: entry.updated,
      published: entry.published,
      content: cdataHtml(entry.html) || undefined, // <content type="html">
      // Atom requires an author per entry (or for the feed): the site stands in when the name is unknown.
      author: [entry.author ? { name: text(entry.author.name), link: entry.author.url } : { name: text(feed.title) }],
      // term and label are set again exactly by textConstructs(): a `<` here would make the document malformed.
      category: entry.terms.map((t) => ({ term: xmlSafe(t.term).replaceAll('<', ''), name: xmlSafe(t.label).replaceAll('<', ''), scheme: t.url })),
    })
  }
  return textConstructs(writer.atom1(), feed)
}

function childElements(parent: XmlElement, name: string): XmlElement[] {
  return Array.from(parent.childNodes).filter((n): n is XmlElement => n.nodeType === 1 && (n as XmlElement).localName === name)
}

/**
 * What feed cannot write in Atom, done on its output through an XML DOM
 * (@xmldom/xmldom), never on the string: feed writes every entry's title and
 * summary as `type="html"` and ignores item extensions in Atom, so titles and
 * summaries become `type="text"` holding the text itself; category `term` and
 * `label` are set again, since feed would leave a `<` in them unescaped; an
 * entry without a body keeps an empty `<content type="html">`; the feed
 * states its language (`xml:lang`), which feed has no option for.
 */
function textConstructs(xml: string, feed: FeedData): string {
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(`feed wrote Atom that does not parse: ${message}`)
    },
  }).parseFromString(xml, 'text/xml')
  const root = doc.documentElement!
  root.setAttributeNS(XML_NAMESPACE, 'xml:lang', feed.language)
  const setText = (element: XmlElement | undefined, value: string) => {
    if (!element) return
    element.setAttribute('type', 'text')
    element.textContent = xmlSafe(value)
  }
  childElements(root, 'entry').forEach((element, i) => {
    const entry = feed.entries[i]!
    if (entry.language) element.setAttributeNS(XML_NAMESPACE, 'xml:lang', xmlSafe(entry.language))
    setText(childElements(element, 'title')[0], entry.title)
    setText(childElements(element, 'summary')[0], entry.summary)
    childElements(element, 'category').forEach((category, j) => {
      category.setAttribute('term', xmlSafe(entry.terms[j]!.term))
      category.setAttribute('label', xmlSafe(entry.terms[j]!.label))
    })
    if (!childElements(element, 'content').length) {
      const content = doc.createElementNS(root.namespaceURI, 'content')
      content.setAttribute('type', 'html')
      element.appendChild(content)
    }
  })
  return new XMLSerializer().serializeToString(doc)
}

/**
 * JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/). Not through feed: its
 * json1() writes JSON Feed version 1 (`author` rather than `authors`, the 1.0
 * version URL), so the 1.1 document is a plain object given to JSON.stringify.
 */
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
      ...(entry.language ? { language: entry.language } : {}),
    })),
  })
}

export function feedResponse(body: string, contentType: string): Response {
  return new Response(body, { headers: { 'content-type': contentType, 'x-cache-tags': FEED_TAGS } })
}
