/**
 * The feed writers (frontend/src/lib/feed.ts) on articles as the API returns
 * them: RSS 2.0, Atom and JSON Feed 1.1 that parse, validate and carry no
 * live markup where their specs say text, whatever the database holds.
 */
import { describe, expect, it } from 'vitest'

import type { Article } from '../../src/payload-types'
import { activeMarkup, codeBlocks, expectConformingFeeds, htmlElements, readAtom, readRss, type JsonFeed } from '../helpers/feedReader'

process.env.PAYLOAD_SECRET ??= 'unit-test-secret-not-for-production'
process.env.DATA_DIR ??= '/tmp/inkwell-unit'
// Vitest sets BASE_URL to Vite's '/', which is not a site address (the sanitizer reads the config).
process.env.BASE_URL = 'http://localhost:3000'
const { renderMarkdown } = await import('../../src/lib/markdown')
const { excerptOf } = await import('../../src/lib/excerpt')
const { atom, feedData, jsonFeed, rss } = await import('../../frontend/src/lib/feed')
const { xmlSafe } = await import('../../frontend/src/lib/xml')

const SITE = 'https://blog.example.com'
const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(1)>'

const settings = { siteName: 'Inkwell & Co <b>', tagline: 'Notes', meta: {}, updatedAt: '2026-11-01T00:00:00.000Z' }

let nextId = 1
async function article(markdown: string, data: Partial<Article> = {}): Promise<Article> {
  const html = await renderMarkdown(markdown)
  const id = nextId++
  return {
    id,
    title: `Article ${id}`,
    slug: `article-${id}`,
    format: 'markdown',
    html,
    excerpt: excerptOf(html),
    status: 'published',
    publishedAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    createdAt: '2026-11-20T09:00:00.000Z',
    author: { id: 3, name: 'Ada Author', email: 'ada@example.com' } as never,
    category: { id: 1, name: 'Engineering', slug: 'engineering' } as never,
    tags: [],
    ...data,
  }
}

function feedsOf(articles: Article[]) {
  const data = feedData(settings, articles, SITE)
  return { rss: rss(data), atom: atom(data), json: jsonFeed(data) }
}

describe('feeds of an article with a category, tags, code and a Chinese title', async () => {
  const tags = [
    { id: 1, name: 'TypeScript', slug: 'typescript' },
    { id: 2, name: 'PostgreSQL', slug: 'postgresql' },
    { id: 3, name: '性能', slug: 'xing-neng' },
  ]
  const chinese = await article('用 TypeScript 构建博客。\n\n```ts\nconst a: number = 1 < 2 ? 1 : 2\n```\n\n[Home](/) and ![x](/api/media/file/x.png)', {
    title: '用 TypeScript 构建一个博客',
    tags: tags as never,
  })
  const feeds = feedsOf([chinese])
  const read = () => ({ rssFeed: readRss(feeds.rss), atomFeed: readAtom(feeds.atom), json: JSON.parse(feeds.json) as JsonFeed })

  it('parse and validate (RSS 2.0, Atom, JSON Feed 1.1 schema)', () => {
    expectConformingFeeds(SITE, feeds)
  })

  it('RSS: dc:creator names the author, no e-mail anywhere, category and tags as categories', () => {
    const { rssFeed } = read()
    const [item] = rssFeed.items
    expect(item!.title).toBe('用 TypeScript 构建一个博客')
    expect(item!.creator).toBe('Ada Author')
    expect(feeds.rss).not.toContain('ada@example.com')
    expect(item!.categories).toEqual([
      { domain: `${SITE}/categories`, label: 'Engineering' },
      { domain: `${SITE}/tags`, label: 'TypeScript' },
      { domain: `${SITE}/tags`, label: 'PostgreSQL' },
      { domain: `${SITE}/tags`, label: '性能' },
    ])
    expect(item!.link).toBe(`${SITE}/articles/${chinese.id}/${chinese.slug}`)
    expect(item!.guid).toBe(`${SITE}/articles/${chinese.id}`)
    expect(feeds.rss).toContain(`<atom:link href="${SITE}/rss" rel="self" type="application/rss+xml"/>`)
  })

  it('Atom: categories with term (slug), label and scheme (their page)', () => {
    const { atomFeed } = read()
    const [entry] = atomFeed.entries
    expect(entry!.title.value).toBe('用 TypeScript 构建一个博客')
    expect(entry!.categories).toEqual([
      { term: 'engineering', label: 'Engineering', scheme: `${SITE}/categories/engineering` },
      { term: 'typescript', label: 'TypeScript', scheme: `${SITE}/tags/typescript` },
      { term: 'postgresql', label: 'PostgreSQL', scheme: `${SITE}/tags/postgresql` },
      { term: 'xing-neng', label: '性能', scheme: `${SITE}/tags/xing-neng` },
    ])
    expect(entry!.authors).toEqual([{ name: 'Ada Author', uri: `${SITE}/users/3` }])
  })

  it('JSON Feed 1.1: authors, tags, dates and content_html', () => {
    const { json } = read()
    const [item] = json.items
    expect(item).toMatchObject({
      id: `${SITE}/articles/${chinese.id}`,
      url: `${SITE}/articles/${chinese.id}/${chinese.slug}`,
      title: '用 TypeScript 构建一个博客',
      authors: [{ name: 'Ada Author', url: `${SITE}/users/3` }],
      tags: ['Engineering', 'TypeScript', 'PostgreSQL', '性能'],
      date_published: '2026-11-20T10:00:00.000Z',
      date_modified: '2026-11-21T10:00:00.000Z',
    })
    expect(JSON.stringify(json)).not.toContain('ada@example.com')
  })

  it('code is a plain <pre><code class="language-…"> without style, links and images are absolute; the page keeps shiki', () => {
    const { rssFeed, atomFeed, json } = read()
    expect(chinese.html).toMatch(/<pre class="shiki[^"]*" style="/)
    for (const content of [rssFeed.items[0]!.content!, atomFeed.entries[0]!.content.value, json.items[0]!.content_html]) {
      expect(codeBlocks(content)).toEqual([{ language: 'ts', code: 'const a: number = 1 < 2 ? 1 : 2', extra: [] }])
      expect(content).not.toMatch(/style=|shiki/)
      expect(content).toContain(`<a href="${SITE}/">Home</a>`)
      expect(content).toContain(`src="${SITE}/api/media/file/x.png"`)
    }
  })
})

describe('feeds never run script', async () => {
  // The body only *shows* code; the title and the author's excerpt are hostile plain text.
  const shows = await article('Look:\n\n```html\n<script>alert(1)</script>\n```\n\nand `<img src=x onerror=alert(1)>` inline.', {
    title: HOSTILE,
    excerpt: HOSTILE,
  })
  const automatic = await article('Writing &lt;script&gt; shows the tag, and so does `<b>`.\n\n```html\n<script>alert(1)</script>\n```')
  const feeds = feedsOf([shows, automatic])
  const read = () => ({ rssFeed: readRss(feeds.rss), atomFeed: readAtom(feeds.atom), json: JSON.parse(feeds.json) as JsonFeed })

  it('parse and validate', () => {
    expectConformingFeeds(SITE, feeds)
  })

  it('the automatic excerpt keeps text that shows markup as text, and leaves the code out', () => {
    expect(automatic.excerpt).toBe('Writing <script> shows the tag, and so does <b>.')
  })

  it('RSS: the title is text, the description is HTML that produces no element, the content only shows the code', () => {
    const { rssFeed } = read()
    expect(rssFeed.items[0]!.title).toBe(HOSTILE)
    for (const item of rssFeed.items) expect(htmlElements(item.description!)).toEqual([])
    // An RSS reader renders description as HTML: the reader sees the excerpt's characters as text.
    expect(rssFeed.items[0]!.description).toBe('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;')
    expect(rssFeed.items[1]!.description).toBe('Writing &lt;script&gt; shows the tag, and so does &lt;b&gt;.')
    expect(activeMarkup(rssFeed.items[0]!.content!)).toEqual([])
    expect(codeBlocks(rssFeed.items[0]!.content!)[0]!.code).toBe('<script>alert(1)</script>')
  })

  it('Atom: title and summary are type="text", the content only shows the code', () => {
    const { atomFeed } = read()
    const [entry, second] = atomFeed.entries
    expect(entry!.title).toEqual({ type: 'text', value: HOSTILE, elements: [] })
    expect(entry!.summary).toEqual({ type: 'text', value: HOSTILE, elements: [] })
    expect(second!.summary).toEqual({ type: 'text', value: 'Writing <script> shows the tag, and so does <b>.', elements: [] })
    expect(entry!.content.elements).not.toContain('script')
    expect(activeMarkup(entry!.content.value)).toEqual([])
  })

  it('JSON Feed: title and summary are text, content_html only shows the code', () => {
    const { json } = read()
    expect(json.items[0]).toMatchObject({ title: HOSTILE, summary: HOSTILE })
    expect(activeMarkup(json.items[0]!.content_html)).toEqual([])
  })

  it('the site name is text in every feed', () => {
    const { rssFeed } = read()
    expect(rssFeed.title).toBe('Inkwell & Co <b>')
    expect(readAtom(feeds.atom).title).toEqual({ type: 'text', value: 'Inkwell & Co <b>', elements: [] })
  })
})

describe('characters XML forbids', () => {
  const forbidden = '\u0000\u0001\u0008\u000B\u000C\u000E\u001F\uFFFE\uFFFF\uDFFF\uD800' // the last two: lone surrogates

  it('are dropped by xmlSafe (which every string goes through before the feed writer), and nothing else is', () => {
    expect(xmlSafe(`a${forbidden}b\t\n\r😀 \uD83D\uDE00 é & <`)).toBe('ab\t\n\r😀 😀 é & <')
  })

  it('in any stored field leave every feed readable', async () => {
    const dirty = await article('Body', {
      title: `Ti${forbidden}tle`,
      excerpt: `Ex${forbidden}cerpt`,
      html: `<p>Bo${forbidden}dy</p>`,
      slug: `slug${forbidden}`,
      author: { id: 3, name: `Ada${forbidden}` } as never,
      category: { id: 1, name: `Cat${forbidden}`, slug: `cat${forbidden}` } as never,
      tags: [{ id: 2, name: `Tag${forbidden}`, slug: `tag${forbidden}` }] as never,
    })
    const feeds = feedsOf([dirty])
    const { rss: rssFeed, atom: atomFeed } = expectConformingFeeds(SITE, feeds)
    expect(rssFeed.items[0]!.title).toBe('Title')
    expect(rssFeed.items[0]!.creator).toBe('Ada')
    expect(atomFeed.entries[0]!.summary!.value).toBe('Excerpt')
    expect(atomFeed.entries[0]!.content.value).toBe('<p>Body</p>')
    const data = feedData({ ...settings, siteName: `Site${forbidden}` }, [dirty], SITE)
    expect(readRss(rss(data)).title).toBe('Site')
    expect(readAtom(atom(data)).title.value).toBe('Site')
  })
})

describe('what the feed writer would get wrong on its own', () => {
  it('text that says "&amp;", titles and bodies with several "]]>", a category named with "<", an article without a body', async () => {
    const odd = await article('Body', {
      title: 'Use &amp; ]]> and ]]><b>x</b>',
      excerpt: 'An &amp; ]]> and ]]>',
      html: '<p title="a]]>b]]>c">x ]]&gt; y &amp;amp; z</p>',
      author: { id: 3, name: 'Ada &amp; <Co>' } as never,
      category: { id: 1, name: 'C<T> & "q"', slug: 'c<t>&' } as never,
    })
    const empty = await article('Body', { html: '' })
    const feeds = feedsOf([odd, empty])
    const { rss: rssFeed, atom: atomFeed } = expectConformingFeeds(SITE, feeds)
    const [item, bare] = rssFeed.items
    expect(item!.title).toBe(odd.title)
    expect(item!.creator).toBe('Ada &amp; <Co>')
    expect(item!.description).toBe('An &amp;amp; ]]&gt; and ]]&gt;')
    expect(htmlElements(item!.content!).map((e) => e.attrs)).toEqual([[{ name: 'title', value: 'a]]>b]]>c' }]])
    expect(item!.categories[0]).toEqual({ domain: `${SITE}/categories`, label: 'C<T> & "q"' })
    expect(bare!.creator).toBe('Ada Author')
    const [entry, bareEntry] = atomFeed.entries
    expect(entry!.title).toEqual({ type: 'text', value: odd.title, elements: [] })
    expect(entry!.summary).toEqual({ type: 'text', value: odd.excerpt, elements: [] })
    expect(entry!.authors).toEqual([{ name: 'Ada &amp; <Co>', uri: `${SITE}/users/3` }])
    expect(entry!.categories[0]).toEqual({ term: 'c<t>&', label: 'C<T> & "q"', scheme: `${SITE}/categories/c%3Ct%3E%26` })
    expect(bareEntry!.content).toEqual({ type: 'html', value: '', elements: [] })
  })
})

describe('feed bodies are rewritten once and follow their article', async () => {
  it('a changed body at the same address (same id, slug and update time) is rewritten, not the kept one served', async () => {
    const first = await article('First body, with a [link](/about).')
    const changed = { ...first, html: first.html!.replace('First body', 'Second body') }
    const once = feedData(settings, [first], SITE).entries[0]!.html
    expect(feedData(settings, [first], SITE).entries[0]!.html).toBe(once)
    const again = feedData(settings, [changed], SITE).entries[0]!.html
    expect(again).toContain('Second body')
    expect(again).toContain(`href="${SITE}/about"`)
    expect(again).not.toContain('First body')
  })
})

describe('languages (issue 31)', async () => {
  const zh = await article('队列让写入更快。', { title: '消息队列实践', language: 'zh-CN' })
  const en = await article('Queues make writes fast.', { title: 'Queues in practice', language: 'en', html: '' })

  it('states the site’s language for the feed and each item’s own', async () => {
    const data = feedData({ ...settings, defaultLanguage: 'zh-CN' }, [zh, en], SITE)
    const feeds = { rss: rss(data), atom: atom(data), json: jsonFeed(data) }
    expectConformingFeeds(SITE, feeds)
    // RSS: the channel's <language>, and Dublin Core's per item (declared even on an item without content:encoded).
    expect(feeds.rss).toContain('<language>zh-CN</language>')
    expect(feeds.rss).toMatch(/<item>[\s\S]*?<dc:language>zh-CN<\/dc:language>[\s\S]*?<\/item>\s*<item>[\s\S]*?<dc:language( xmlns:dc="[^"]+")?>en<\/dc:language>/)
    // Atom: xml:lang on the feed and on each entry.
    expect(feeds.atom).toMatch(/<feed [^>]*xml:lang="zh-CN"/)
    expect(feeds.atom.match(/<entry xml:lang="([^"]+)"/g)).toEqual(['<entry xml:lang="zh-CN"', '<entry xml:lang="en"'])
    // JSON Feed 1.1: language on the feed and on each item.
    const json = JSON.parse(feeds.json) as { language: string; items: { language?: string }[] }
    expect(json.language).toBe('zh-CN')
    expect(json.items.map((i) => i.language)).toEqual(['zh-CN', 'en'])
  })
})
