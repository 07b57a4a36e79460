/**
 * Full-text search (src/plugins/search) on the demo seed plus a few articles
 * made for the purpose: Chinese, code identifiers, ranking, the websearch
 * syntax, drafts and scheduled articles, hostile text and hostile queries,
 * the JSON endpoint, the admin's list search and the reindex command.
 */
import type { Where } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { reindexSearchCommand } from '../../src/plugins/search/reindexSearchCommand'
import { poolOf } from '../../src/lib/pool'
import { parseQuery, planOf, searchArticles, SearchQueryError, windowOf, type SearchResult } from '../../src/plugins/search/searchArticles'
import { seedDemo } from '../../src/seed'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from './accounts-client'

let t: TestPayload
let author: number
let categories: { id: number; slug: string }[]
let tags: { id: number; slug: string }[]

const search = (params: Record<string, unknown>) => searchArticles(t.payload, params)
const titles = (result: SearchResult) => result.docs.map((d) => d.title)
const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString()

async function article(data: Record<string, unknown>) {
  return t.payload.create({
    collection: 'articles',
    data: { format: 'markdown', status: 'published', author, publishedAt: hoursAgo(1), ...data } as never,
  })
}

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  await seedDemo(t.payload, { password: 'inkwell-demo', log: () => {} })
  const users = await t.payload.find({ collection: 'users', where: { email: { equals: 'author@inkwell.test' } }, depth: 0 })
  author = users.docs[0]!.id
  categories = (await t.payload.find({ collection: 'categories', limit: 100, depth: 0 })).docs.map((c) => ({ id: c.id, slug: c.slug! }))
  tags = (await t.payload.find({ collection: 'tags', limit: 100, depth: 0 })).docs.map((c) => ({ id: c.id, slug: c.slug! }))
}, 180_000)
afterAll(() => t?.destroy())

describe('Chinese', () => {
  it('finds the seed’s Chinese articles by the words of their titles and bodies', async () => {
    expect(titles(await search({ q: '索引' }))).toContain('深入理解 PostgreSQL 索引')
    expect(titles(await search({ q: '博客' }))).toContain('用 TypeScript 构建一个博客')
    expect(titles(await search({ q: '缓存策略' }))[0]).toBe('缓存策略与实践')
    expect(titles(await search({ q: '异步编程' }))[0]).toBe('异步编程入门：从回调到 async/await')
    expect(titles(await search({ q: '工作流' }))).toContain('写给新手的 Git 工作流')
    // A sentence of a seed paragraph, found in the body text.
    const body = await search({ q: '可靠的测试' })
    expect(body.totalDocs).toBeGreaterThan(0)
    expect(body.docs[0]!.snippetHtml).toMatch(/<mark>[^<]*测试<\/mark>/)
    // Highlights show the text as written, without the spaces segmentation adds.
    expect((await search({ q: '博客' })).docs[0]!.titleHtml).toBe('用 TypeScript 构建一个<mark>博客</mark>')
  })
})

describe('ranking and syntax', () => {
  let titleMatch: number, bodyOld: number, bodyNew: number
  beforeAll(async () => {
    titleMatch = (await article({ title: 'Zanzibar permissions explained', markdown: 'Nothing else here.', publishedAt: hoursAgo(50) })).id
    bodyOld = (await article({ title: 'An older note', markdown: 'We mention zanzibar once in passing.', publishedAt: hoursAgo(40) })).id
    bodyNew = (await article({ title: 'A newer note', markdown: 'We mention zanzibar once in passing.', publishedAt: hoursAgo(30) })).id
    await article({
      title: 'Listening for changes',
      markdown: 'Hooks and notifications.\n\n```ts\nuseEffect(() => subscribe(), [])\n```\n\n```sql\nselect pg_notify(\'cache\', \'articles\');\n```',
    })
    await article({ title: 'Idempotency keys', markdown: 'Every retry is xylophonic when keyed. Redis or Postgres both work.' })
  })

  it('puts title matches first, then the newer of equal matches', async () => {
    const ids = (await search({ q: 'zanzibar' })).docs.map((d) => d.id)
    expect(ids).toEqual([titleMatch, bodyNew, bodyOld])
  })

  it('caps the count past the ranked matches: "N+" with pages up to the cap', async () => {
    // Four published matches (title, two bodies, and the newest below), cap of 3.
    const newest = (await article({ title: 'Cap note', markdown: 'zanzibar again', publishedAt: hoursAgo(2) })).id
    try {
      const capped = await searchArticles(t.payload, { q: 'zanzibar', limit: 2 }, { maxRanked: 3 })
      expect(capped).toMatchObject({ totalDocs: 3, capped: true, totalPages: 2, hasNextPage: true })
      const last = await searchArticles(t.payload, { q: 'zanzibar', limit: 2, page: 2 }, { maxRanked: 3 })
      expect(last).toMatchObject({ totalDocs: 3, capped: true, hasNextPage: false })
      expect(last.docs).toHaveLength(1)
      await expect(searchArticles(t.payload, { q: 'zanzibar', limit: 2, page: 3 }, { maxRanked: 3 })).rejects.toMatchObject({ field: 'page' })
      // Exactly the cap is not "more".
      expect(await searchArticles(t.payload, { q: 'zanzibar' }, { maxRanked: 4 })).toMatchObject({ totalDocs: 4, capped: false })
      expect(await search({ q: 'zanzibar' })).toMatchObject({ totalDocs: 4, capped: false })
      // Past the last page the count still says how many there are.
      expect(await searchArticles(t.payload, { q: 'zanzibar', limit: 2, page: 3 }, { maxRanked: 10 })).toMatchObject({ totalDocs: 4, capped: false, docs: [] })
    } finally {
      await t.payload.delete({ collection: 'articles', id: newest })
    }
  })

  it('answers the same whichever plan picks the newest matches', async () => {
    expect(planOf(10_000, 100_000, 200)).toBe('all-matches')
    expect(planOf(90_000, 100_000, 200)).toBe('newest-first')
    for (const plan of ['newest-first', 'all-matches'] as const) {
      expect((await searchArticles(t.payload, { q: 'zanzibar' }, { plan })).docs.map((d) => d.id)).toEqual([titleMatch, bodyNew, bodyOld])
      const filtered = await searchArticles(t.payload, { q: 'the', category: 'databases', limit: 50 }, { plan })
      expect(filtered.docs.map((d) => d.id)).toEqual((await search({ q: 'the', category: 'databases', limit: 50 })).docs.map((d) => d.id))
      expect(filtered.totalDocs).toBeGreaterThan(0)
    }
  })

  it('finds the same newest matches when it looks in a window of the newest articles first', async () => {
    expect(windowOf(40_000, 1_000_000, 200)).toBe(15_075)
    expect(windowOf(500, 1_000_000, 200)).toBeNull() // few matches: their pages are few
    expect(windowOf(300_000, 1_000_000, 200)).toBe(2_010)
    expect(windowOf(1_000, 10_000, 200)).toBeNull() // the window would be most of the site
    expect(windowOf(4_317, 1_000_000, 200)).toBeNull() // 140,000 articles to walk, for a word the planner guessed at
    // Six matches, one an hour, three hours apart from the rest of the site's newest articles.
    const ids: number[] = []
    for (let i = 0; i < 6; i++) ids.push((await article({ title: `Wombat note ${i}`, markdown: 'wombats everywhere', publishedAt: hoursAgo(3 + i) })).id)
    try {
      const everywhere = await searchArticles(t.payload, { q: 'wombat', limit: 50 }, { plan: 'all-matches', maxRanked: 3 })
      expect(everywhere).toMatchObject({ totalDocs: 3, capped: true })
      // A window holding the cap and more: the same answer. One holding fewer: the whole table again.
      for (const window of [1, 3, 8, 1000]) {
        expect(await searchArticles(t.payload, { q: 'wombat', limit: 50 }, { plan: 'all-matches', maxRanked: 3, window }), `window ${window}`).toEqual(everywhere)
      }
      expect((await searchArticles(t.payload, { q: 'wombat', limit: 50 }, { plan: 'all-matches', maxRanked: 10, window: 4 })).totalDocs).toBe(6)
    } finally {
      for (const id of ids) await t.payload.delete({ collection: 'articles', id })
    }
  })

  it('finds code by its identifiers', async () => {
    expect(titles(await search({ q: 'useEffect' }))).toEqual(['Listening for changes'])
    expect(titles(await search({ q: 'pg_notify' }))).toEqual(['Listening for changes'])
  })

  it('understands quotes, OR and -, and completes the last word as a prefix', async () => {
    expect(titles(await search({ q: '"mention zanzibar once"' })).sort()).toEqual(['A newer note', 'An older note'])
    expect(titles(await search({ q: '"zanzibar mention"' }))).toEqual([])
    expect(titles(await search({ q: 'zanzibar -newer' }))).not.toContain('A newer note')
    expect(titles(await search({ q: 'useEffect OR xylophonic' })).sort()).toEqual(['Idempotency keys', 'Listening for changes'])
    expect(titles(await search({ q: 'retry xylopho' }))).toEqual(['Idempotency keys'])
    expect(parseQuery('redis idempot')).toMatchObject({ websearch: 'redis', prefix: 'idempot' })
    expect(parseQuery('"redis idempot"').prefix).toBeUndefined()
    expect(parseQuery('redis -idempot').prefix).toBeUndefined()
  })

  it('filters by category and tag, and pages through results', async () => {
    const databases = categories.find((c) => c.slug === 'databases')!
    const inCategory = await search({ q: 'the', category: 'databases', limit: 50 })
    expect(inCategory.totalDocs).toBeGreaterThan(0)
    for (const doc of inCategory.docs) expect(doc.category?.id).toBe(databases.id)
    const tag = tags.find((x) => x.slug === 'postgresql')!
    const tagged = await search({ q: 'the', tag: 'postgresql', limit: 50 })
    expect(tagged.totalDocs).toBeGreaterThan(0)
    for (const doc of tagged.docs) expect(doc.tags.map((x) => x.id)).toContain(tag.id)

    const all = await search({ q: 'the', limit: 50 })
    const first = await search({ q: 'the', limit: 5, page: 1 })
    const second = await search({ q: 'the', limit: 5, page: 2 })
    expect(first.totalDocs).toBe(all.totalDocs)
    expect(first.totalPages).toBe(Math.ceil(all.totalDocs / 5))
    expect([...first.docs, ...second.docs].map((d) => d.id)).toEqual(all.docs.slice(0, 10).map((d) => d.id))
    expect(first.hasNextPage && second.hasPrevPage).toBe(true)
  })
})

describe('what is searchable', () => {
  it('never shows drafts or scheduled articles, and follows edits of title, body and status', async () => {
    const draft = await article({ title: 'Quokka draft', markdown: 'quokka', status: 'draft', publishedAt: undefined })
    const scheduled = await article({ title: 'Quokka scheduled', markdown: 'quokka', publishedAt: new Date(Date.now() + 86400_000).toISOString() })
    expect(titles(await search({ q: 'quokka' }))).toEqual([])

    await t.payload.update({ collection: 'articles', id: draft.id, data: { status: 'published', publishedAt: hoursAgo(1) } })
    expect(titles(await search({ q: 'quokka' }))).toEqual(['Quokka draft'])

    await t.payload.update({ collection: 'articles', id: draft.id, data: { title: 'Wombat now', markdown: 'dingo only', excerpt: 'About wombats.' } })
    expect(titles(await search({ q: 'quokka' }))).toEqual([])
    expect(titles(await search({ q: 'wombat' }))).toEqual(['Wombat now'])
    expect(titles(await search({ q: 'dingo' }))).toEqual(['Wombat now'])
    // A save that leaves the text alone keeps the vector Payload does not know about.
    await t.payload.update({ collection: 'articles', id: draft.id, data: { status: 'published' } })
    expect(titles(await search({ q: 'wombat' }))).toEqual(['Wombat now'])

    await t.payload.update({ collection: 'articles', id: draft.id, data: { status: 'draft' } })
    expect(titles(await search({ q: 'wombat' }))).toEqual([])
    expect(scheduled.id).toBeGreaterThan(0)
  })

  it('escapes hostile article text in titles and snippets, adding only <mark>', async () => {
    await article({
      title: 'Hostile <img src=x onerror=alert(1)> platypus',
      markdown: 'The platypus says `<script>alert("x")</script>` and &lt;b&gt; and </mark><mark>platypus',
    })
    const [hit] = (await search({ q: 'platypus' })).docs
    for (const html of [hit!.titleHtml, hit!.snippetHtml]) {
      expect(html).toContain('<mark>platypus</mark>')
      expect(html.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/)
    }
    expect(hit!.titleHtml).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(hit!.snippetHtml).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
    expect(titles(await search({ q: 'script' }))).toContain(hit!.title)
  })
})

describe('the highlighter’s markers (issue 27 item 7)', () => {
  it('are stripped from stored article text, so text cannot open or close highlights of its own', async () => {
    const saved = await article({
      title: 'Echidna \uE001</mark>\uE000trap\uE001 quoll',
      excerpt: 'An \uE000excerpt',
      markdown: 'The echidna \uE000forged\uE001 highlight',
    })
    const stored = await t.payload.findByID({ collection: 'articles', id: saved.id })
    expect(stored.title).toBe('Echidna </mark>trap quoll')
    expect(stored.excerpt).toBe('An excerpt')
    expect(JSON.stringify(stored)).not.toMatch(/[\uE000\uE001]/)
    const [hit] = (await search({ q: 'echidna' })).docs
    expect(hit!.titleHtml).toBe('<mark>Echidna</mark> &lt;/mark&gt;trap quoll')
    expect(hit!.snippetHtml).not.toContain('<mark>forged</mark>')
    // On an update too.
    const updated = await t.payload.update({ collection: 'articles', id: saved.id, data: { title: 'Echidna \uE000again' } })
    expect(updated.title).toBe('Echidna again')
  })
})

describe('hostile queries', () => {
  it('answer a normal result or a clear message, never an error', async () => {
    for (const q of ['"unbalanced quote', '"', '- OR -', 'OR', '&|!():*<->', "'; drop table articles; --", "1' or '1'='1",
      'a\u0000b', '\u0000', '\u0001\u0007\u001b[31m', '\ud800 lone surrogate', '👩‍💻 emoji', '\\', '%_%', 'x'.repeat(200), '   ']) {
      const result = await search({ q })
      expect(result.docs).toBeInstanceOf(Array)
    }
    expect((await search({ q: '&|!():*<->' })).notice).toBe('search.noWords')
    expect((await search({ q: '"" -' })).docs).toEqual([])
    expect((await search({ q: 'a\u0000idempotent' })).q).toBe('a idempotent')
    expect(await t.payload.count({ collection: 'articles' })).toMatchObject({ totalDocs: expect.any(Number) })
  })

  it('refuses a query over the limit, and bad page numbers, naming the parameter', async () => {
    await expect(search({ q: 'x'.repeat(201) })).rejects.toMatchObject({ field: 'q', status: 400 })
    await expect(search({ q: 'x'.repeat(1_000_000) })).rejects.toBeInstanceOf(SearchQueryError)
    await expect(search({ q: 'x', page: -1 })).rejects.toMatchObject({ field: 'page' })
    await expect(search({ q: 'x', limit: 1000 })).rejects.toMatchObject({ field: 'limit' })
    await expect(search({ q: 'x', tag: { equals: 1 } })).rejects.toMatchObject({ field: 'tag' })
  })
})

describe('GET /api/search', () => {
  it('answers the same as the service, as JSON, and 400 naming q for a huge query', async () => {
    const browser = new Browser(t.payload, t.databaseName)
    const reply = await browser.request('/api/search?q=' + encodeURIComponent('缓存策略') + '&limit=3')
    expect(reply.status).toBe(200)
    const body = (await reply.json()) as SearchResult
    expect(body).toEqual(JSON.parse(JSON.stringify(await search({ q: '缓存策略', limit: 3 }))))
    expect(body.docs[0]!.title).toBe('缓存策略与实践')

    const huge = await browser.request('/api/search?q=' + 'a'.repeat(5000))
    expect(huge.status).toBe(400)
    expect((await huge.json()).errors[0]).toMatchObject({ message: expect.stringMatching(/200 characters/), data: { errors: [{ path: 'q', message: expect.stringMatching(/200 characters/) }] } })
    for (const q of ['%00', '%22', '%27%3B--', 'a&q=b', 'q[$gt]=1']) {
      expect((await browser.request('/api/search?q=' + q)).status).toBe(200)
    }
    expect((await browser.request('/api/search?q[foo]=bar')).status).toBe(200)
    expect((await browser.request('/api/search?q=x&page=abc')).status).toBe(400)
  })
})

describe('admin list search', () => {
  it('goes through the full-text index, drafts included, with access rules applied', async () => {
    const draft = await article({ title: 'Narwhal plans', markdown: 'The body says capybara.', status: 'draft', publishedAt: undefined })
    // The admin list's own query shape (mergeListSearchAndWhere over listSearchableFields).
    const where: Where = { or: [{ fullText: { like: 'capybara' } }, { slug: { like: 'capybara' } }] }
    const found = await t.payload.find({ collection: 'articles', where, depth: 0 })
    expect(found.docs.map((d) => d.id)).toEqual([draft.id])
    expect((await t.payload.count({ collection: 'articles', where })).totalDocs).toBe(1)
    // Anonymous REST: the same condition, but the read rule hides the draft.
    const browser = new Browser(t.payload, t.databaseName)
    const anonymous = await browser.request('/api/articles?where[fullText][like]=capybara&depth=0')
    expect(anonymous.status).toBe(200)
    expect((await anonymous.json()).docs).toEqual([])
    const config = t.payload.collections.articles.config
    expect(config.admin.listSearchableFields).toContain('fullText')
  })
})

describe('reindex-search command', () => {
  it('rebuilds every vector with progress and a summary line', async () => {
    await poolOf(t.payload).query('delete from article_search')
    expect((await search({ q: '缓存策略' })).totalDocs).toBe(0)
    const progress: [number, number][] = []
    const summary = await reindexSearchCommand.run(t.payload, { log: () => {}, progress: (done, total) => progress.push([done, total]) })
    const total = (await t.payload.count({ collection: 'articles' })).totalDocs
    expect(summary).toMatch(new RegExp(`^Reindexed ${total} articles for search in [\\d.]+ s\\.$`))
    expect(progress[0]).toEqual([0, total])
    expect(progress.at(-1)).toEqual([total, total])
    expect(titles(await search({ q: '缓存策略' }))[0]).toBe('缓存策略与实践')
    expect(titles(await search({ q: 'pg_notify' }))).toEqual(['Listening for changes'])
  })
})
