/**
 * Excerpts and feeds through Payload: articles saved by the Local API (both
 * formats) get a plain-prose excerpt, and the feeds written from what the
 * public reads of them parse, validate and carry no live markup, even after
 * characters XML forbids were written into the rows directly by SQL.
 */
import pg from 'pg'
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { legacyExcerptOf, up as remakeExcerpts } from '../../src/migrations/20261123_120000_plain_excerpts'
import { atom, feedData, jsonFeed, rss, siteOrigin, FEED_SIZE } from '../../frontend/src/lib/feed'
import type { Article, Category, Tag, User } from '../../src/payload-types'
import { codeBlock, editorState, heading, list, paragraph, quote, text } from '../fixtures/lexical'
import { activeMarkup, codeBlocks, expectConformingFeeds, htmlElements } from '../helpers/feedReader'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'

const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(1)>'

let t: TestPayload
let payload: Payload
let db: pg.Client
let cast: Awaited<ReturnType<typeof createCast>>
let category: Category
let tags: Tag[]

beforeAll(async () => {
  t = await createTestPayload()
  payload = t.payload
  db = new pg.Client({ connectionString: t.databaseUrl })
  await db.connect()
  cast = await createCast(payload)
  await payload.update({ collection: 'users', id: cast.author.id, data: { name: 'Ada Author' } })
  category = await payload.create({ collection: 'categories', data: { name: '随笔', slug: 'sui-bi' } })
  tags = await Promise.all(
    [
      ['TypeScript', 'typescript'],
      ['PostgreSQL', 'postgresql'],
      ['性能', 'xing-neng'],
    ].map(([name, slug]) => payload.create({ collection: 'tags', data: { name: name!, slug: slug! } })),
  )
})
afterAll(async () => {
  await db?.end()
  await t?.destroy()
})

function publish(data: Partial<Article>, user: User = cast.author): Promise<Article> {
  return payload.create({
    collection: 'articles',
    data: { status: 'published', publishedAt: new Date().toISOString(), ...data } as never,
    user,
    overrideAccess: false,
  })
}

/** What the feeds read (frontend/src/lib/api/articles.ts latestArticlesWithBody), as the public. */
async function feedsAsThePublicReadsThem() {
  const [settings, { docs }] = await Promise.all([
    payload.findGlobal({ slug: 'site-settings', depth: 0, overrideAccess: false }),
    payload.find({
      collection: 'articles',
      where: { status: { equals: 'published' } },
      sort: '-publishedAt',
      limit: FEED_SIZE,
      depth: 1,
      overrideAccess: false,
      select: { title: true, slug: true, excerpt: true, html: true, publishedAt: true, updatedAt: true, author: true, category: true, tags: true },
      populate: { users: { name: true }, categories: { name: true, slug: true }, tags: { name: true, slug: true } },
    }),
  ])
  const data = feedData(settings, docs as Article[], siteOrigin())
  return { rss: rss(data), atom: atom(data), json: jsonFeed(data) }
}

describe('automatic excerpts', () => {
  it('of a Markdown article: plain prose, blocks separated, code left out, at most 160 characters cut at a word', async () => {
    const article = await publish({
      title: 'Excerpt from Markdown',
      format: 'markdown',
      markdown: [
        '## Second heading',
        'Some **bold** and a list:',
        '- apple\n- banana',
        '> A quote',
        '```sql\nselect 1;\n```',
        'Then a long closing paragraph that goes on for a while so that the excerpt has to be cut somewhere sensible, at a word and never in the middle of one.',
      ].join('\n\n'),
    })
    expect(article.excerpt).toMatch(/^Second heading Some bold and a list: apple banana A quote Then a long closing paragraph/)
    expect(article.excerpt).not.toContain('select')
    expect(article.excerpt!.length).toBeLessThanOrEqual(160)
    expect(article.excerpt).toMatch(/\w…$/)
  })

  it('of a rich-text article: the same rules', async () => {
    const article = await publish({
      title: 'Excerpt from rich text',
      format: 'html',
      content: editorState(
        heading('h2', 'Overview'),
        paragraph(text('Read this first.')),
        list(['one', 'two']),
        codeBlock('const hidden = true', 'typescript'),
        quote('Quoted words'),
      ) as never,
    })
    expect(article.excerpt).toBe('Overview Read this first. one two Quoted words')
  })

  it('keeps text that shows markup as text, and an author’s excerpt as written', async () => {
    const shows = await publish({ title: 'Shows a tag', format: 'markdown', markdown: 'Write &lt;b&gt; for bold, or `<i>`.' })
    expect(shows.excerpt).toBe('Write <b> for bold, or <i>.')
    const own = await publish({ title: 'Own excerpt', format: 'markdown', markdown: 'Body', excerpt: '  My <own> words  ' })
    expect(own.excerpt).toBe('My <own> words')
  })
})

describe('the migration that remakes old automatic excerpts', () => {
  it('rewrites the excerpts the old function made, and no author’s excerpt', async () => {
    const automatic = await publish({ title: 'Old excerpt', format: 'markdown', markdown: '## Heading\n\nText &amp;lt; here.\n\n```js\nlet x\n```' })
    const own = await publish({ title: 'Own', format: 'markdown', markdown: '## Heading\n\nText', excerpt: 'HeadingText' })
    const legacy = legacyExcerptOf(automatic.html!)
    expect(legacy).toBe('Heading Text < here. let x') // code included, &amp;lt; decoded twice
    await db.query(`update articles set excerpt = $1 where id = $2`, [legacy, automatic.id])
    await remakeExcerpts({ db: payload.db.drizzle, payload } as never)
    const { rows } = await db.query(`select id, excerpt from articles where id = any($1) order by id`, [[automatic.id, own.id]])
    expect(rows).toEqual([
      { id: automatic.id, excerpt: 'Heading Text &lt; here.' },
      { id: own.id, excerpt: 'HeadingText' },
    ])
  })
})

describe('feeds of articles saved through Payload', () => {
  let chinese: Article
  let hostile: Article

  beforeAll(async () => {
    chinese = await publish({
      title: '用 TypeScript 构建一个博客',
      format: 'markdown',
      markdown: '写代码，也写文章。\n\n```ts\nconst ok: boolean = 1 < 2\n```',
      category: category.id,
      tags: tags.map((tag) => tag.id),
    })
    hostile = await publish({
      title: HOSTILE,
      excerpt: HOSTILE,
      format: 'markdown',
      markdown: 'This only shows code:\n\n```html\n<script>alert(1)</script>\n```',
      category: category.id,
    })
  })

  it('validate, with dc:creator, categories and tags, and plain code blocks', async () => {
    const feeds = await feedsAsThePublicReadsThem()
    const site = siteOrigin()
    const { rss: r, atom: a, json } = expectConformingFeeds(site, feeds)
    const item = r.items.find((i) => i.title === chinese.title)!
    expect(item.creator).toBe('Ada Author')
    expect(item.categories.map((c) => c.label)).toEqual(['随笔', 'TypeScript', 'PostgreSQL', '性能'])
    const entry = a.entries.find((e) => e.title.value === chinese.title)!
    expect(entry.categories[0]).toEqual({ term: 'sui-bi', label: '随笔', scheme: `${site}/categories/sui-bi` })
    expect(entry.categories.map((c) => c.term)).toEqual(['sui-bi', 'typescript', 'postgresql', 'xing-neng'])
    expect(codeBlocks(entry.content.value)).toEqual([{ language: 'ts', code: 'const ok: boolean = 1 < 2', extra: [] }])
    expect(json.items.find((i) => i.title === chinese.title)).toMatchObject({
      authors: [{ name: 'Ada Author' }],
      tags: ['随笔', 'TypeScript', 'PostgreSQL', '性能'],
    })
    expect(feeds.rss + feeds.atom + feeds.json).not.toContain('author@example.test')
  })

  it('give a feed reader no markup from a hostile title and excerpt, or from a body that shows code', async () => {
    const feeds = await feedsAsThePublicReadsThem()
    const { rss: r, atom: a, json } = expectConformingFeeds(siteOrigin(), feeds)
    const item = r.items.find((i) => i.title === HOSTILE)!
    expect(htmlElements(item.description!)).toEqual([])
    expect(activeMarkup(item.content!)).toEqual([])
    expect(codeBlocks(item.content!)[0]!.code).toBe('<script>alert(1)</script>')
    const entry = a.entries.find((e) => e.id!.endsWith(`/articles/${hostile.id}`))!
    expect(entry.title).toEqual({ type: 'text', value: HOSTILE, elements: [] })
    expect(entry.summary).toEqual({ type: 'text', value: HOSTILE, elements: [] })
    expect(activeMarkup(entry.content.value)).toEqual([])
    expect(json.items.find((i) => i.title === HOSTILE)!.summary).toBe(HOSTILE)
  })

  it('stay readable when rows hold characters XML forbids (written by SQL, past every input check)', async () => {
    const bad = '\u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF'
    await db.query(`update articles set title = $1, excerpt = $2, html = $3 where id = $4`, [
      `Dirty${bad} title`,
      `Dirty${bad} excerpt`,
      `<p>Dirty${bad} body</p>`,
      chinese.id,
    ])
    await db.query(`update categories set name = $1 where id = $2`, [`Dirty${bad} category`, category.id])
    await db.query(`update tags set name = $1, slug = $2 where id = $3`, [`Dirty${bad} tag`, `dirty${bad}`, tags[0]!.id])
    await db.query(`update users set name = $1 where id = $2`, [`Dirty${bad} author`, cast.author.id])
    await payload.updateGlobal({ slug: 'site-settings', data: { siteName: 'Clean site' } }) // the row exists once saved
    await db.query(`update site_settings set site_name = $1, tagline = $2`, [`Dirty${bad} site`, `Dirty${bad} tagline`])

    const feeds = await feedsAsThePublicReadsThem()
    expect(feeds.rss + feeds.atom).toContain('Dirty title')
    const { rss: r, atom: a } = expectConformingFeeds(siteOrigin(), feeds)
    expect(r.title).toBe('Dirty site')
    const item = r.items.find((i) => i.title === 'Dirty title')!
    expect(item.creator).toBe('Dirty author')
    expect(item.categories.map((c) => c.label)).toContain('Dirty category')
    const entry = a.entries.find((e) => e.title.value === 'Dirty title')!
    expect(entry.summary!.value).toBe('Dirty excerpt')
    expect(entry.content.value).toBe('<p>Dirty body</p>')
    expect(entry.categories.find((c) => c.label === 'Dirty tag')!.term).toBe('dirty')
  })
})
