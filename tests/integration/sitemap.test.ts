/**
 * The sitemap (frontend/src/lib/sitemap.ts) on a database of its own: what
 * it lists is exactly what the public may read (published articles whose time
 * has come, users, categories, tags), hostile slugs written by SQL still give
 * valid XML, and above the per-file limit the index and its parts validate
 * against the sitemaps.org schemas, split by keyset without losing or
 * repeating a URL, however small the limit.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { sitemapPart, sitemapRoot } from '../../frontend/src/lib/sitemap'
import { XML_FORBIDDEN } from '../helpers/feedReader'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'
import { ensureXmllint, SITEMAP_INDEX_XSD, SITEMAP_XSD, validateXml } from '../helpers/xml'

const SITE = 'https://blog.example'
let t: TestPayload
let db: pg.Client
let published: number[]
let draft: number
let scheduled: number

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!)

async function text(response: Response | null): Promise<string> {
  expect(response).not.toBeNull()
  expect(response!.headers.get('content-type')).toBe('application/xml; charset=utf-8')
  return response!.text()
}

beforeAll(async () => {
  ensureXmllint()
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  db = new pg.Client({ connectionString: t.databaseUrl })
  await db.connect()
  const { author } = await createCast(t.payload)
  const category = await t.payload.create({ collection: 'categories', data: { name: 'Notes', slug: 'notes' } })
  await t.payload.create({ collection: 'tags', data: { name: 'SQL', slug: 'sql' } })
  const create = (title: string, status: 'published' | 'draft') =>
    t.payload.create({
      collection: 'articles',
      data: { title, format: 'markdown', markdown: 'Body.', status, category: category.id, publishedAt: new Date(Date.now() - 60_000).toISOString() } as never,
      user: author,
    })
  published = []
  for (let i = 0; i < 7; i++) published.push((await create(`Public ${i}`, 'published')).id)
  draft = (await create('A draft', 'draft')).id
  scheduled = (await create('Scheduled for tomorrow', 'published')).id
  // Scheduled: published status, a publish time still to come (written by SQL, as a scheduler would leave it).
  await db.query(`update articles set published_at = now() + interval '1 day' where id = $1`, [scheduled])
}, 120_000)
afterAll(async () => {
  await db?.end()
  await t?.destroy()
})

describe('one URL set', () => {
  it('lists every public page with lastmod, and validates against sitemap.xsd', async () => {
    const xml = await text(await sitemapRoot(SITE, { payload: t.payload, max: 50_000 }))
    expect(validateXml(xml, SITEMAP_XSD).valid).toBe(true)
    const urls = locs(xml)
    expect(urls).toContain(`${SITE}/`)
    expect(urls).toContain(`${SITE}/links`)
    expect(urls).toContain(`${SITE}/categories/notes`)
    expect(urls).toContain(`${SITE}/tags/sql`)
    const users = (await db.query<{ id: number }>(`select id from users order by id`)).rows
    for (const u of users) expect(urls).toContain(`${SITE}/users/${u.id}`)
    const articleUrls = urls.filter((u) => u.includes('/articles/'))
    expect(articleUrls.map((u) => Number(u.split('/')[4])).sort((a, b) => a - b)).toEqual(published)
    expect(xml).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z<\/lastmod>/)
  })

  it('never lists drafts or articles scheduled for later', async () => {
    const xml = await text(await sitemapRoot(SITE, { payload: t.payload, max: 50_000 }))
    expect(xml).not.toContain(`/articles/${draft}/`)
    expect(xml).not.toContain(`/articles/${scheduled}/`)
    await db.query(`update articles set published_at = now() - interval '1 minute' where id = $1`, [scheduled])
    try {
      expect(await text(await sitemapRoot(SITE, { payload: t.payload, max: 50_000 }))).toContain(`/articles/${scheduled}/`)
    } finally {
      await db.query(`update articles set published_at = now() + interval '1 day' where id = $1`, [scheduled])
    }
  })

  it('stays valid XML when slugs hold markup and characters XML forbids (written by SQL)', async () => {
    const { rows } = await db.query<{ id: number }>(
      `insert into categories (name, slug, updated_at, created_at) values ('Dirty', $1, now(), now()) returning id`,
      [`a&b<c>"'\u0001\u000B\uFFFE é/x`],
    )
    await db.query(`update articles set slug = $1 where id = $2`, [`x&y<z>\u001F`, published[0]])
    try {
      const xml = await text(await sitemapRoot(SITE, { payload: t.payload, max: 50_000 }))
      expect(xml).not.toMatch(XML_FORBIDDEN)
      expect(validateXml(xml, SITEMAP_XSD).valid).toBe(true)
      // Percent-encoded as URLs are, then entity-escaped: no raw markup reaches the document.
      expect(xml).toContain(`<loc>${SITE}/categories/a&amp;b%3Cc%3E%22&apos;%20%C3%A9/x</loc>`)
      expect(xml).toContain(`<loc>${SITE}/articles/${published[0]}/x&amp;y%3Cz%3E</loc>`)
    } finally {
      await db.query(`delete from categories where id = $1`, [rows[0]!.id])
      await db.query(`update articles set slug = 'public-0' where id = $1`, [published[0]])
    }
  })
})

describe('a sitemap index above the per-file limit', () => {
  it.each([2, 3, 5])('with %i URLs per file: a valid index whose parts hold every URL once', async (max) => {
    const whole = locs(await text(await sitemapRoot(SITE, { payload: t.payload, max: 50_000 })))
    const index = await text(await sitemapRoot(SITE, { payload: t.payload, max }))
    expect(index).toContain('<sitemapindex')
    expect(validateXml(index, SITEMAP_INDEX_XSD).valid).toBe(true)
    const children = locs(index)
    expect(children.length).toBeGreaterThan(1)
    const all: string[] = []
    for (const [i, child] of children.entries()) {
      expect(child).toBe(`${SITE}/sitemaps/${i + 1}.xml`)
      const xml = await text(await sitemapPart(SITE, i + 1, { payload: t.payload, max }))
      expect(validateXml(xml, SITEMAP_XSD).valid).toBe(true)
      const urls = locs(xml)
      expect(urls.length).toBeGreaterThan(0)
      expect(urls.length).toBeLessThanOrEqual(max)
      all.push(...urls)
    }
    expect(new Set(all).size).toBe(all.length)
    expect(all.sort()).toEqual(whole.sort())
    expect(await sitemapPart(SITE, children.length + 1, { payload: t.payload, max })).toBeNull()
  })

  it('answers null (a 404) for part numbers that are not positive whole numbers', async () => {
    for (const n of [0, -1, 1.5, Number.NaN]) expect(await sitemapPart(SITE, n, { payload: t.payload, max: 2 })).toBeNull()
  })

  it('streams a part in batches rather than building it in memory', async () => {
    const values = Array.from({ length: 12_000 }, (_, i) => i)
    await db.query(
      `insert into users (name, email, created_at, updated_at) select 'Bulk ' || g, 'bulk-' || g || '@example.test', now(), now() from unnest($1::int[]) g`,
      [values],
    )
    const index = await text(await sitemapRoot(SITE, { payload: t.payload, max: 50_000 }))
    expect(index).toContain('<urlset')
    const response = await sitemapRoot(SITE, { payload: t.payload, max: 50_000 })
    const reader = response.body!.getReader()
    let chunks = 0
    let xml = ''
    const decoder = new TextDecoder()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      chunks++
      xml += decoder.decode(value, { stream: true })
    }
    // 12,000 users and a few more rows in batches of 5,000: the body arrives in several chunks.
    expect(chunks).toBeGreaterThanOrEqual(4)
    expect(locs(xml).filter((u) => u.includes('/users/'))).toHaveLength(Number((await db.query(`select count(*) n from users`)).rows[0].n))
  })
})
