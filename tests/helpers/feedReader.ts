/**
 * Reads RSS, Atom and JSON feeds the way a standards-following feed reader
 * does, and reports what the specs and the W3C validator would object to.
 *
 * - XML is parsed by @xmldom/xmldom, which reports malformed documents, and
 *   checked for characters XML 1.0 forbids (one is enough to stop a reader).
 * - Each field is taken as its spec types it: RSS title and category are
 *   text, RSS item description and content:encoded are HTML; Atom text
 *   constructs follow their `type` attribute. HTML fields are parsed as a
 *   browser would (parse5), so "no markup" means no element comes out.
 * - JSON Feed is validated against the JSON Feed 1.1 schema (jsonfeed-schema)
 *   with ajv, formats included.
 */
import { DOMParser, type Document, type Element } from '@xmldom/xmldom'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import schema from 'jsonfeed-schema/schema-v1.1.json'
import { parseFragment, serialize, type DefaultTreeAdapterMap } from 'parse5'
import { expect } from 'vitest'

export const ATOM = 'http://www.w3.org/2005/Atom'
export const DC = 'http://purl.org/dc/elements/1.1/'
export const CONTENT = 'http://purl.org/rss/1.0/modules/content/'

/** Characters XML 1.0 forbids, lone surrogates included (see xmlSafe in frontend/src/lib/xml.ts). */
export const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/u

export function parseXml(xml: string): Document {
  if (XML_FORBIDDEN.test(xml)) throw new Error(`XML-forbidden character at ${xml.search(XML_FORBIDDEN)}`)
  const problems: string[] = []
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') problems.push(`${level}: ${message}`)
    },
  }).parseFromString(xml, 'text/xml')
  if (problems.length) throw new Error(`not well-formed XML:\n${problems.join('\n')}`)
  return doc
}

export function children(parent: Element | Document, ns: string | null, name: string): Element[] {
  const all = Array.from((parent as Element).childNodes as unknown as ArrayLike<Element>)
  return all.filter((n) => n.nodeType === 1 && n.localName === name && (n.namespaceURI ?? null) === ns)
}

export function child(parent: Element | Document, ns: string | null, name: string): Element | undefined {
  return children(parent, ns, name)[0]
}

export function text(element: Element | undefined): string | undefined {
  return element?.textContent ?? undefined
}

type HtmlElement = DefaultTreeAdapterMap['element']

/** The elements a browser builds from an HTML string (every depth). */
export function htmlElements(html: string): HtmlElement[] {
  const found: HtmlElement[] = []
  const stack: DefaultTreeAdapterMap['parentNode'][] = [parseFragment(html)]
  while (stack.length) {
    for (const node of stack.pop()!.childNodes) {
      if ('tagName' in node) {
        found.push(node)
        stack.push(node)
      }
    }
  }
  return found
}

/** Elements and attributes in HTML that run script or restyle the reader. */
export function activeMarkup(html: string): string[] {
  return htmlElements(html).flatMap((e) => [
    ...(['script', 'iframe', 'object', 'embed', 'svg', 'math', 'style', 'form'].includes(e.tagName) ? [`<${e.tagName}>`] : []),
    ...e.attrs.filter((a) => /^on/i.test(a.name) || a.name === 'style' || /^\s*javascript:/i.test(a.value)).map((a) => `<${e.tagName} ${a.name}>`),
  ])
}

/** An Atom text construct as a reader shows it: text stays text, html is parsed. */
export function atomText(element: Element | undefined): { type: string; value: string; elements: string[] } {
  const type = element?.getAttribute('type') || 'text'
  const value = text(element) ?? ''
  return { type, value, elements: type === 'html' ? htmlElements(value).map((e) => e.tagName) : [] }
}

export type RssItem = {
  title?: string
  link?: string
  guid?: string
  pubDate?: string
  creator?: string
  authors: string[]
  categories: { domain: string | null; label: string }[]
  /** HTML, as RSS readers take it. */
  description?: string
  content?: string
}

export function readRss(xml: string) {
  const doc = parseXml(xml)
  const rss = doc.documentElement!
  if (rss.localName !== 'rss' || rss.getAttribute('version') !== '2.0') throw new Error('not RSS 2.0')
  const channel = child(rss, null, 'channel')!
  const items: RssItem[] = children(channel, null, 'item').map((item) => ({
    title: text(child(item, null, 'title')),
    link: text(child(item, null, 'link')),
    guid: text(child(item, null, 'guid')),
    pubDate: text(child(item, null, 'pubDate')),
    creator: text(child(item, DC, 'creator')),
    authors: children(item, null, 'author').map((a) => a.textContent ?? ''),
    categories: children(item, null, 'category').map((c) => ({ domain: c.getAttribute('domain'), label: c.textContent ?? '' })),
    description: text(child(item, null, 'description')),
    content: text(child(item, CONTENT, 'encoded')),
  }))
  return {
    title: text(child(channel, null, 'title')),
    link: text(child(channel, null, 'link')),
    description: text(child(channel, null, 'description')),
    self: children(channel, ATOM, 'link').find((l) => l.getAttribute('rel') === 'self')?.getAttribute('href') ?? undefined,
    items,
  }
}

export function readAtom(xml: string) {
  const doc = parseXml(xml)
  const feed = doc.documentElement!
  if (feed.localName !== 'feed' || feed.namespaceURI !== ATOM) throw new Error('not Atom')
  const links = (e: Element) => children(e, ATOM, 'link').map((l) => ({ rel: l.getAttribute('rel') || 'alternate', href: l.getAttribute('href') ?? '' }))
  return {
    id: text(child(feed, ATOM, 'id')),
    title: atomText(child(feed, ATOM, 'title')),
    updated: text(child(feed, ATOM, 'updated')),
    self: links(feed).find((l) => l.rel === 'self')?.href,
    entries: children(feed, ATOM, 'entry').map((entry) => ({
      id: text(child(entry, ATOM, 'id')),
      title: atomText(child(entry, ATOM, 'title')),
      summary: child(entry, ATOM, 'summary') ? atomText(child(entry, ATOM, 'summary')) : undefined,
      content: atomText(child(entry, ATOM, 'content')),
      updated: text(child(entry, ATOM, 'updated')),
      published: text(child(entry, ATOM, 'published')),
      links: links(entry),
      authors: children(entry, ATOM, 'author').map((a) => ({ name: text(child(a, ATOM, 'name')), uri: text(child(a, ATOM, 'uri')) })),
      categories: children(entry, ATOM, 'category').map((c) => ({
        term: c.getAttribute('term'),
        label: c.getAttribute('label'),
        scheme: c.getAttribute('scheme'),
      })),
    })),
  }
}

const ajv = addFormats(new Ajv({ allErrors: true, strict: false }))
const validateJsonFeedSchema = ajv.compile(schema)

/** Schema errors of a JSON Feed 1.1 document (empty when valid). */
export function jsonFeedErrors(feed: unknown): string[] {
  if (validateJsonFeedSchema(feed)) return []
  return (validateJsonFeedSchema.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`)
}

export type JsonFeedItem = {
  id: string
  url: string
  title: string
  content_html: string
  summary?: string
  date_published: string
  date_modified?: string
  authors?: { name: string; url?: string }[]
  tags?: string[]
}

export type JsonFeed = { version: string; title: string; home_page_url: string; feed_url: string; items: JsonFeedItem[] }

/** Code blocks in feed HTML: plain `<pre><code class="language-…">`, nothing inside but text. */
export function codeBlocks(html: string): { language: string | undefined; code: string; extra: string[] }[] {
  return htmlElements(html)
    .filter((e) => e.tagName === 'pre')
    .map((pre) => {
      const code = pre.childNodes.find((n) => 'tagName' in n && n.tagName === 'code') as HtmlElement | undefined
      const inner = code ? htmlElements(serialize(code)) : []
      return {
        language: code?.attrs.find((a) => a.name === 'class')?.value.match(/^language-([\w-]+)$/)?.[1],
        code: code ? textOf(code) : '',
        extra: [...pre.attrs.map((a) => `pre[${a.name}]`), ...inner.map((e) => `<${e.tagName}>`)],
      }
    })
}

function textOf(node: DefaultTreeAdapterMap['childNode']): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value
  return 'childNodes' in node ? node.childNodes.map(textOf).join('') : ''
}

/**
 * What every feed of the site must satisfy, whatever its articles: the checks
 * the W3C validator and the three specs make, and no live markup where the
 * spec says text. Returns the parsed feeds for the caller's own checks.
 */
export function expectConformingFeeds(site: string, feeds: { rss: string; atom: string; json: string }) {
  const rss = readRss(feeds.rss)
  expect(rss.self).toBe(`${site}/rss`)
  expect(rss.link).toBe(`${site}/`)
  for (const item of rss.items) {
    expect(item.title).toBeTruthy()
    expect(item.link!.startsWith(`${site}/articles/`)).toBe(true)
    expect(item.guid).toBeTruthy()
    expect(Number.isNaN(Date.parse(item.pubDate!))).toBe(false)
    expect(item.authors, 'RSS <author> must be an e-mail address: names go in dc:creator').toEqual([])
    expect(item.creator).toBeTruthy()
    expect(item.creator).not.toContain('@')
    for (const category of item.categories) expect(category.domain!.startsWith(site)).toBe(true)
    // RSS readers take description as HTML: a plain-text excerpt must come out as text only.
    expect(htmlElements(item.description ?? '')).toEqual([])
    expect(activeMarkup(item.content ?? '')).toEqual([])
    for (const block of codeBlocks(item.content ?? '')) expect(block.extra).toEqual([])
  }

  const atom = readAtom(feeds.atom)
  expect(atom.self).toBe(`${site}/atom.xml`)
  expect(atom.id).toBe(`${site}/`)
  expect(atom.title.type).toBe('text')
  expect(Number.isNaN(Date.parse(atom.updated!))).toBe(false)
  for (const entry of atom.entries) {
    expect(entry.id).toBeTruthy()
    expect(entry.title.type).toBe('text')
    if (entry.summary) expect(entry.summary.type).toBe('text')
    expect(entry.content.type).toBe('html')
    expect(activeMarkup(entry.content.value)).toEqual([])
    for (const block of codeBlocks(entry.content.value)) expect(block.extra).toEqual([])
    expect(entry.links.find((l) => l.rel === 'alternate')!.href.startsWith(`${site}/articles/`)).toBe(true)
    expect(entry.authors.length).toBeGreaterThan(0)
    expect(entry.authors.every((a) => !!a.name && !a.name.includes('@'))).toBe(true)
    expect(Number.isNaN(Date.parse(entry.updated!))).toBe(false)
    for (const category of entry.categories) {
      expect(category.term, 'Atom categories need a term').toBeTruthy()
      expect(category.label).toBeTruthy()
      expect(category.scheme!.startsWith(`${site}/`)).toBe(true)
    }
  }
  // Escaped HTML keeps attribute names as they are, so a style attribute shows in the raw XML.
  for (const xml of [feeds.rss, feeds.atom]) expect(xml, 'no inline style survives into a feed').not.toMatch(/\sstyle\s*=/i)

  const json = JSON.parse(feeds.json) as JsonFeed
  expect(jsonFeedErrors(json)).toEqual([])
  expect(json.version).toBe('https://jsonfeed.org/version/1.1')
  expect(json.feed_url).toBe(`${site}/feed.json`)
  expect(json.home_page_url).toBe(`${site}/`)
  for (const item of json.items) {
    expect(item.content_html).toBeDefined()
    expect(activeMarkup(item.content_html)).toEqual([])
    expect(Number.isNaN(Date.parse(item.date_published))).toBe(false)
  }
  return { rss, atom, json }
}

