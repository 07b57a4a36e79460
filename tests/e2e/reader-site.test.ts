/**
 * The reader site against the seeded demo, over HTTP as a browser or feed
 * reader sees it: status codes, drafts, SEO tags, feeds, sitemap (validated
 * against the sitemaps.org schema), cache invalidation and view counting.
 */
import pg from 'pg'
import type { Browser } from 'playwright-core'
import Parser from 'rss-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { codeBlocks, expectConformingFeeds, XML_FORBIDDEN } from '../helpers/feedReader'
import { launchBrowser } from '../helpers/browser'
import { api, logIn, page } from '../helpers/http'
import { ensureXmllint, SITEMAP_INDEX_XSD, SITEMAP_XSD, validateXml } from '../helpers/xml'
import { ReaderSite } from './pages/ReaderSite'

type Doc = { id: number; slug: string; title: string; status: string }
let app: RunningApp
let db: pg.Client
let published: Doc
let draft: Doc

async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query(text, params)).rows as T[]
}

beforeAll(async () => {
  ensureXmllint()
  app = await startApp()
  db = new pg.Client({ connectionString: app.databaseUrl })
  db.on('error', () => {}) // the database is dropped at the end, under this connection
  await db.connect()
  ;[published] = await sql<Doc>(`select id, slug, title, status from articles where status = 'published' order by id limit 1`)
  ;[draft] = await sql<Doc>(`select id, slug, title, status from articles where status = 'draft' limit 1`)
})
afterAll(async () => {
  await db?.end()
  await app?.stop()
  await app?.dropDatabase()
})

describe('pages and status codes', () => {
  it.each(['/', '/?sort=replied', '/?page=2', '/links', '/categories/engineering', '/tags/typescript', '/users/3'])('%s → 200', async (path) => {
    expect((await page(app.url, path)).status).toBe(200)
  })

  it.each(['/articles/99999999/x', '/articles/abc/x', '/categories/nope', '/tags/nope', '/users/99999', '/users/abc', '/?page=999', '/no/such/page'])(
    '%s → 404 with the site’s page',
    async (path) => {
      const response = await page(app.url, path)
      expect(response.status).toBe(404)
      expect(response.body).toContain('That page does not exist')
    },
  )

  it('redirects a stale or missing slug with 301 to the current URL', async () => {
    for (const path of [`/articles/${published.id}/old-slug`, `/articles/${published.id}`]) {
      const response = await page(app.url, path)
      expect(response.status).toBe(301)
      expect(new URL(response.headers.get('location')!, app.url).pathname).toBe(`/articles/${published.id}/${published.slug}`)
    }
  })

  it('keeps drafts invisible to the public: page, lists, feed and sitemap', async () => {
    expect((await page(app.url, `/articles/${draft.id}/${draft.slug}`)).status).toBe(404)
    for (const path of ['/', '/rss', '/sitemap.xml', '/users/3', '/users/4']) {
      expect((await page(app.url, path)).body).not.toContain(`/articles/${draft.id}/`)
    }
  })

  it('renders the article with its meta, canonical URL, Open Graph, Twitter card and JSON-LD', async () => {
    const { body } = await page(app.url, `/articles/${published.id}/${published.slug}`)
    expect(body).toContain(`<h1 id="article-title">${published.title}</h1>`)
    expect(body).toMatch(/<meta name="description" content="[^"]+"/)
    expect(body).toMatch(/<meta name="keywords" content="[^"]+"/)
    expect(body).toContain(`<link rel="canonical" href="${app.url}/articles/${published.id}/${published.slug}"`)
    expect(body).toContain('<meta property="og:type" content="article"')
    expect(body).toMatch(/<meta name="twitter:card" content="summary(_large_image)?"/)
    const ld = JSON.parse(body.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)![1]!)
    expect(ld).toMatchObject({ '@type': 'BlogPosting', headline: published.title })
  })

  it('falls back to the site settings’ meta when an article has none', async () => {
    await sql(`update articles set meta_description = null, meta_keywords = null, excerpt = null where id = $1`, [published.id])
    const owner = await logIn(app.url, 'owner@inkwell.test')
    // A save through Payload (not SQL) is what purges cached pages.
    await api(app.url, `/globals/site-settings`, {
      method: 'POST',
      token: owner.token,
      body: JSON.stringify({ meta: { description: 'Default description', keywords: 'default, keywords' } }),
    })
    const { body } = await page(app.url, `/articles/${published.id}/${published.slug}`)
    expect(body).toContain('<meta name="keywords" content="default, keywords"')
  })

  it('answers 500 with a friendly page and no stack trace when the API fails', async () => {
    await sql(`alter table tags rename to tags_broken`)
    try {
      const response = await page(app.url, '/tags/typescript?page=1')
      expect(response.status).toBe(500)
      expect(response.body).toContain('Something went wrong')
      expect(response.body).not.toMatch(/\bat .+:\d+:\d+|node_modules|Error:/)
    } finally {
      await sql(`alter table tags_broken rename to tags`)
    }
  })
})

describe('feeds', () => {
  const parser = new Parser()
  const fetchFeeds = async (init: RequestInit = {}) => {
    const [rss, atom, json] = await Promise.all(['/rss', '/atom.xml', '/feed.json'].map(async (path) => (await fetch(app.url + path, init)).text()))
    return { rss: rss!, atom: atom!, json: json! }
  }

  it('serves RSS 2.0 with the 20 latest articles and full content', async () => {
    const response = await fetch(`${app.url}/rss`)
    expect(response.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8')
    const feed = await parser.parseString(await response.text())
    expect(feed.items).toHaveLength(20)
    const latest = await sql<{ title: string }>(`select title from articles where status = 'published' order by published_at desc limit 1`)
    expect(feed.items[0]!.title).toBe(latest[0]!.title)
    expect(feed.items[0]!['content:encoded'] ?? feed.items[0]!.content).toContain('<')
    expect(Number.isNaN(Date.parse(feed.items[0]!.pubDate!))).toBe(false)
    expect(feed.items.every((i) => i.link!.startsWith(app.url + '/articles/'))).toBe(true)
  })

  it('serves Atom', async () => {
    const response = await fetch(`${app.url}/atom.xml`)
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8')
    const feed = await parser.parseString(await response.text())
    expect(feed.items).toHaveLength(20)
    expect(feed.items[0]!.id).toMatch(/\/articles\/\d+$/)
  })

  it('serves JSON Feed 1.1', async () => {
    const response = await fetch(`${app.url}/feed.json`)
    expect(response.headers.get('content-type')).toBe('application/feed+json; charset=utf-8')
    const feed = (await response.json()) as { version: string; items: { content_html: string; date_published: string }[] }
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1')
    expect(feed.items).toHaveLength(20)
    expect(feed.items[0]!.content_html).toContain('<')
  })

  it('of the demo seed parse and validate: dc:creator, categories with term, tags, plain code, Chinese titles', async () => {
    const feeds = await fetchFeeds()
    const { rss, atom, json } = expectConformingFeeds(app.url, feeds)
    const [chinese] = await sql<{ id: number; title: string; category: string; tags: string[] }>(
      `select a.id, a.title, c.slug category, array(select t.slug from articles_rels r join tags t on t.id = r.tags_id
         where r.parent_id = a.id and r.path = 'tags' order by r.order) tags
       from articles a join categories c on c.id = a.category_id
       where a.status = 'published' and a.title ~ '[一-龥]' and a.html like '%<pre%' order by a.published_at desc limit 1`,
    )
    expect(chinese!.tags.length).toBeGreaterThan(1)
    const item = rss.items.find((i) => i.title === chinese!.title)!
    expect(item.creator).toBeTruthy()
    expect(item.categories).toHaveLength(1 + chinese!.tags.length)
    expect(codeBlocks(item.content!).length).toBeGreaterThan(0)
    expect(codeBlocks(item.content!).every((b) => !!b.language && b.extra.length === 0)).toBe(true)
    const entry = atom.entries.find((e) => e.title.value === chinese!.title)!
    expect(entry.categories.map((c) => c.term)).toEqual([chinese!.category, ...chinese!.tags])
    expect(entry.categories[0]!.scheme).toBe(`${app.url}/categories/${chinese!.category}`)
    expect(json.items.find((i) => i.title === chinese!.title)!.tags!.length).toBe(1 + chinese!.tags.length)
    // No author's e-mail address (an article's code sample may show one, so look at the author fields).
    expect(feeds.atom).not.toContain('<email>')
    expect(json.items.flatMap((i) => i.authors ?? []).every((a) => !JSON.stringify(a).includes('@'))).toBe(true)
    // The page itself keeps shiki's highlighting.
    expect((await page(app.url, `/articles/${chinese!.id}/x`, { redirect: 'follow' })).body).toMatch(/<pre class="shiki[^"]*" style="/)
  })

  it('keeps no script in feed content', async () => {
    expect(await (await fetch(`${app.url}/rss`)).text()).not.toMatch(/<script/i)
  })

  it('stay readable when stored rows hold characters XML forbids (written by SQL)', async () => {
    const bad = '\u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF'
    const [latest] = await sql<{ id: number; title: string; excerpt: string; html: string }>(
      `select id, title, excerpt, html from articles where status = 'published' order by published_at desc limit 1`,
    )
    const [settings] = await sql<{ site_name: string }>(`select site_name from site_settings`)
    await sql(`update articles set title = $1, excerpt = $2, html = $3 where id = $4`, [`Dirty${bad} title`, `Dirty${bad} excerpt`, `<p>Dirty${bad}</p>`, latest!.id])
    await sql(`update site_settings set site_name = $1`, [`Dirty${bad} site`])
    try {
      // A signed-in request renders afresh (the render cache only holds anonymous pages).
      const reader = await logIn(app.url, 'reader1@inkwell.test')
      const feeds = await fetchFeeds({ headers: { cookie: reader.cookie } })
      expect(feeds.rss).toContain('Dirty title')
      const { rss, atom } = expectConformingFeeds(app.url, feeds)
      expect(rss.items[0]!.title).toBe('Dirty title')
      expect(atom.entries[0]!.summary!.value).toBe('Dirty excerpt')
      const parsed = await parser.parseString(feeds.atom)
      expect(parsed.items[0]!.title).toBe('Dirty title')
    } finally {
      await sql(`update articles set title = $1, excerpt = $2, html = $3 where id = $4`, [latest!.title, latest!.excerpt, latest!.html, latest!.id])
      await sql(`update site_settings set site_name = $1`, [settings?.site_name ?? 'Inkwell'])
    }
  })

  it('serves robots.txt pointing to the sitemap', async () => {
    const { body } = await page(app.url, '/robots.txt')
    expect(body).toContain(`Sitemap: ${app.url}/sitemap.xml`)
  })
})

describe('sitemap', () => {
  it('lists every public URL with lastmod and validates against sitemap.xsd', async () => {
    const response = await fetch(`${app.url}/sitemap.xml`)
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8')
    const xml = await response.text()
    const check = validateXml(xml, SITEMAP_XSD)
    expect(check.output).toContain('validates')
    expect(check.valid).toBe(true)
    const [{ n }] = await sql<{ n: string }>(`select count(*) n from articles where status = 'published'`)
    expect(xml.match(/<loc>[^<]*\/articles\/\d+\//g)).toHaveLength(Number(n))
    expect(xml).toContain(`<loc>${app.url}/categories/engineering</loc>`)
    expect(xml).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}T/)
  })

  it('stays valid when category and tag slugs hold characters XML forbids (written by SQL)', async () => {
    const [category] = await sql<{ id: number; slug: string }>(`select id, slug from categories order by id limit 1`)
    const [tag] = await sql<{ id: number; slug: string }>(`select id, slug from tags order by id limit 1`)
    await sql(`update categories set slug = $1 where id = $2`, [`dirty\u0001\u000B\uFFFEslug`, category!.id])
    await sql(`update tags set slug = $1 where id = $2`, [`dirty\u001F\uFFFFtag`, tag!.id])
    try {
      const reader = await logIn(app.url, 'reader1@inkwell.test')
      const xml = await (await fetch(`${app.url}/sitemap.xml`, { headers: { cookie: reader.cookie } })).text()
      expect(xml).toContain('/categories/dirty')
      expect(xml).not.toMatch(XML_FORBIDDEN)
      expect(validateXml(xml, SITEMAP_XSD).valid).toBe(true)
    } finally {
      await sql(`update categories set slug = $1 where id = $2`, [category!.slug, category!.id])
      await sql(`update tags set slug = $1 where id = $2`, [tag!.slug, tag!.id])
    }
  })

  it('becomes a valid sitemap index above the per-file limit', async () => {
    const small = await startApp({ SITEMAP_MAX_URLS: '10' })
    try {
      const index = await (await fetch(`${small.url}/sitemap.xml`)).text()
      expect(index).toContain('<sitemapindex')
      expect(validateXml(index, SITEMAP_INDEX_XSD).valid).toBe(true)
      const children = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!)
      expect(children.length).toBeGreaterThan(1)
      const all: string[] = []
      for (const child of children) {
        const xml = await (await fetch(child.replace(/^https?:\/\/[^/]+/, small.url))).text()
        expect(validateXml(xml, SITEMAP_XSD).valid).toBe(true)
        const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!)
        expect(locs.length).toBeLessThanOrEqual(10)
        all.push(...locs)
      }
      expect(new Set(all).size).toBe(all.length)
      expect(all.filter((u) => u.includes('/articles/'))).toHaveLength(39)
      expect((await page(small.url, `/sitemaps/${children.length + 1}.xml`)).status).toBe(404)
    } finally {
      await small.stop()
    }
  })
})

describe('render cache', () => {
  // The newest article: it is on the home page and in the feed.
  let latest: Doc
  beforeAll(async () => {
    ;[latest] = await sql<Doc>(`select id, slug, title, status from articles where status = 'published' order by published_at desc limit 1`)
  })
  const articlePath = () => `/articles/${latest.id}/${latest.slug}`

  it('serves repeated anonymous requests from the cache, never signed-in ones', async () => {
    await page(app.url, articlePath())
    expect((await page(app.url, articlePath())).headers.get('x-cache')).toBe('HIT')
    const reader = await logIn(app.url, 'reader1@inkwell.test')
    expect((await page(app.url, articlePath(), { headers: { cookie: reader.cookie } })).headers.get('x-cache')).toBeNull()
  })

  it('keys on the parameters a page declares, so random query strings hit the same entry', async () => {
    await page(app.url, articlePath())
    for (const query of ['?utm_source=x', `?r=${Math.random()}`, '?page=abc']) {
      expect((await page(app.url, articlePath() + query)).headers.get('x-cache')).toBe('HIT')
    }
  })

  it('serves kept pages as brotli or gzip by Accept-Encoding, and assets as immutable', async () => {
    await page(app.url, '/')
    const br = await page(app.url, '/', { headers: { 'accept-encoding': 'br' } })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toMatch(/Accept-Encoding/i)
    expect(br.body).toContain('</html>') // fetch decoded it
    expect((await page(app.url, '/', { headers: { 'accept-encoding': 'gzip' } })).headers.get('content-encoding')).toBe('gzip')
    const asset = /(\/_astro\/[^"]+\.css)/.exec(br.body)?.[1]
    if (asset) expect((await page(app.url, asset)).headers.get('cache-control')).toContain('immutable')
  })

  it('shows an edited article on the next request, on its page and in lists', async () => {
    await page(app.url, articlePath())
    await page(app.url, '/')
    const owner = await logIn(app.url, 'owner@inkwell.test')
    await page(app.url, '/rss')
    await api(app.url, `/articles/${latest.id}`, { method: 'PATCH', token: owner.token, body: JSON.stringify({ title: 'Edited for the cache test' }) })
    expect((await page(app.url, articlePath())).body).toContain('Edited for the cache test')
    expect((await page(app.url, '/')).body).toContain('Edited for the cache test')
    expect((await page(app.url, '/rss')).body).toContain('Edited for the cache test')
  })

  it('shows a new reply on the next request', async () => {
    await page(app.url, articlePath())
    const reader = await logIn(app.url, 'reader2@inkwell.test')
    await api(app.url, '/replies', { method: 'POST', token: reader.token, body: JSON.stringify({ article: latest.id, body: 'Fresh reply for the cache test' }) })
    expect((await page(app.url, articlePath())).body).toContain('Fresh reply for the cache test')
  })

  it('shows renamed categories and new site settings everywhere on the next request', async () => {
    await page(app.url, '/')
    await page(app.url, '/links')
    const owner = await logIn(app.url, 'owner@inkwell.test')
    await api(app.url, '/globals/site-settings', { method: 'POST', token: owner.token, body: JSON.stringify({ siteName: 'Renamed Blog' }) })
    expect((await page(app.url, '/')).body).toContain('Renamed Blog')
    expect((await page(app.url, '/links')).body).toContain('Renamed Blog')
    const [{ id }] = await sql<{ id: number }>(`select id from categories where slug = 'engineering'`)
    await api(app.url, `/categories/${id}`, { method: 'PATCH', token: owner.token, body: JSON.stringify({ name: 'Software Engineering' }) })
    expect((await page(app.url, '/')).body).toContain('Software Engineering')
  })
})

describe('browsing in Chromium', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('goes home → category → article → tag → user page', async () => {
    const tab = await browser.newPage()
    const site = new ReaderSite(tab, app.url)
    await site.openHome()
    const category = await site.openFirstCategory()
    expect((await site.heading().textContent())!.trim()).toBe(category)
    const title = await site.openFirstArticle()
    expect((await site.heading().textContent())!.trim()).toBe(title)
    const tag = await site.openFirstTag()
    expect((await site.heading().textContent())!.trim()).toBe(tag)
    const author = await site.openFirstAuthor()
    expect((await site.heading().textContent())!.trim()).toBe(author)
    await tab.screenshot({ path: 'tests/e2e/.artifacts/user-page.png', fullPage: false })
    for (const [name, width] of [['desktop', 1280], ['phone', 390]] as const) {
      await tab.setViewportSize({ width, height: 900 })
      await site.openHome()
      await tab.screenshot({ path: `tests/e2e/.artifacts/home-${name}.png` })
      await tab.goto(`${app.url}/articles/${published.id}/${published.slug}`)
      await tab.screenshot({ path: `tests/e2e/.artifacts/article-${name}.png` })
    }
    await tab.close()
  })
})

describe('view counting', () => {
  it('counts every view by a person exactly, cached or not, and loses none on a clean shutdown', async () => {
    // An article of its own: views of other tests' articles may still be pending in memory.
    const owner = await logIn(app.url, 'owner@inkwell.test')
    const { doc: article } = await api<{ doc: Doc }>(app.url, '/articles', {
      method: 'POST',
      token: owner.token,
      body: JSON.stringify({ title: 'Counted views', format: 'markdown', markdown: 'Count me', status: 'published' }),
    })
    const path = `/articles/${article.id}/${article.slug}`
    const before = 0
    // People read with browsers; Node's own user agent ("node") is a robot's.
    const person = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36' }
    for (let i = 0; i < 30; i++) await page(app.url, path, { headers: person })
    await Promise.all(Array.from({ length: 20 }, () => page(app.url, path, { headers: person })))
    // Not views: HEAD, a redirect, prefetches, crawlers.
    await page(app.url, path, { method: 'HEAD', headers: person })
    await page(app.url, `${path}-stale`, { headers: person })
    await page(app.url, path, { headers: { ...person, 'sec-purpose': 'prefetch' } })
    await page(app.url, path, { headers: { ...person, purpose: 'prefetch' } })
    await page(app.url, path, { headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } })
    await page(app.url, path)
    const reader = await logIn(app.url, 'reader3@inkwell.test')
    for (let i = 0; i < 5; i++) await page(app.url, path, { headers: { ...person, cookie: reader.cookie } })
    await page(app.url, path, { headers: { 'user-agent': 'curl/8.5.0', cookie: reader.cookie } }) // not a view, signed in or not

    await db.end()
    await app.stop({ keepDatabase: true })
    db = new pg.Client({ connectionString: app.databaseUrl })
    db.on('error', () => {})
    await db.connect()
    const [{ view_count: after }] = await sql<{ view_count: string }>(`select view_count from articles where id = $1`, [article.id])
    expect(Number(after) - before).toBe(55)
  })
})
