/**
 * The reader site's list totals come from summary counts kept by triggers
 * (migration 20261126_180500_public_list_counts, collections/Articles/listTotals.ts),
 * not from count(*). They must stay exact through every way an article enters
 * or leaves a list: create, publish, unpublish, schedule (and the time coming,
 * with no write), delete, a category, author or tag change, a version
 * restored, raw SQL in bulk; and the page's total must equal count(*) of
 * what the public sees, for the site and every category, tag and author.
 */
import { handleEndpoints, type Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { publicListTotal, type ArticleList } from '../../collections/Articles/listTotals'
import { listArticles } from '../../frontend/src/lib/api'
import { poolOf, query } from '../../src/lib/pool'
import { installSitePayload } from '../../src/lib/sitePayload'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'

let t: TestPayload
let payload: Payload
let cast: Awaited<ReturnType<typeof createCast>>
const cat: Record<string, number> = {}
const tag: Record<string, number> = {}

const minutesFromNow = (m: number) => new Date(Date.now() + m * 60_000).toISOString()

async function article(title: string, data: { category?: string; tags?: string[]; author?: 'author' | 'otherAuthor'; status?: 'draft' | 'published'; publishedAt?: string } = {}) {
  return payload.create({
    collection: 'articles',
    data: {
      title,
      format: 'markdown',
      markdown: title,
      status: data.status ?? 'published',
      category: data.category ? cat[data.category] : undefined,
      tags: (data.tags ?? []).map((name) => tag[name]!),
      author: cast[data.author ?? 'author'].id,
      ...(data.publishedAt ? { publishedAt: data.publishedAt } : {}),
    } as never,
  })
}

const idOf = async (title: string) => (await payload.find({ collection: 'articles', where: { title: { equals: title } }, limit: 1 })).docs[0]!.id

/** Every list the summary keeps, for the site's current categories, tags and authors. */
function everyList(): ArticleList[] {
  return [
    { list: 'site' },
    ...Object.values(cat).map((id) => ({ list: 'category' as const, id })),
    ...Object.values(tag).map((id) => ({ list: 'tag' as const, id })),
    ...[cast.author.id, cast.otherAuthor.id].map((id) => ({ list: 'author' as const, id })),
  ]
}

/** The oracle: count(*) of the list's articles the public sees now (publicNow, in SQL). */
async function countStar(list: ArticleList): Promise<number> {
  const filter = {
    site: 'true',
    category: 'a.category_id = $1',
    author: 'a.author_id = $1',
    tag: 'a.id in (select r.parent_id from articles_rels r where r.tags_id = $1)',
  }[list.list]
  const rows = await query<{ n: string }>(
    payload,
    `select count(*) as n from articles a
      where a.status = 'published' and a._status = 'published' and a.published_at <= now() and ${filter}`,
    list.list === 'site' ? [] : [list.id],
  )
  return Number(rows[0]!.n)
}

/** The stored counts, and the same recounted from the base tables by public_list_counts_rebuild() (rolled back). */
async function storedAndRecounted(): Promise<{ stored: Record<string, number>; recounted: Record<string, number> }> {
  const read = async (client: { query: (text: string) => Promise<{ rows: { key: string; articles: number }[] }> }) =>
    Object.fromEntries((await client.query(`select list || ':' || id as key, articles from public_list_counts where articles <> 0 order by 1`)).rows.map((r) => [r.key, r.articles]))
  const client = await poolOf(payload).connect()
  try {
    const stored = await read(client)
    await client.query('begin')
    await client.query('select public_list_counts_rebuild()')
    const recounted = await read(client)
    await client.query('rollback')
    return { stored, recounted }
  } finally {
    client.release()
  }
}

/** Every list's total, read as the pages read it, equals count(*); the kept counts equal a recount. */
async function expectExact(when: string): Promise<void> {
  for (const list of everyList()) {
    const expected = await countStar(list)
    const name = `${when}: ${list.list}${'id' in list ? ` ${list.id}` : ''}`
    expect(await publicListTotal(payload, list), name).toBe(expected)
    const filter = list.list === 'site' ? {} : { [list.list]: list.id }
    const page = await listArticles({ page: 1, limit: 2, ...filter })
    expect(page.totalDocs, `${name}, the page's total`).toBe(expected)
    expect(page.totalPages, `${name}, its pages`).toBe(Math.ceil(expected / 2))
  }
  const { stored, recounted } = await storedAndRecounted()
  expect(stored, `${when}: kept = recounted`).toEqual(recounted)
}

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  payload = t.payload
  installSitePayload({ payload, rest: (request) => handleEndpoints({ config: payload.config, request }) })
  cast = await createCast(payload)
  for (const name of ['Essays', 'Notes']) cat[name] = (await payload.create({ collection: 'categories', data: { name } })).id
  for (const name of ['ocean', 'forest', 'desert']) tag[name] = (await payload.create({ collection: 'tags', data: { name } })).id
})
afterAll(() => t?.destroy())

describe('list totals from the summary counts', () => {
  it('counts created articles: published, draft, scheduled, tagged twice', async () => {
    await article('One', { category: 'Essays', tags: ['ocean'] })
    await article('Two', { category: 'Essays', tags: ['ocean', 'forest'], author: 'otherAuthor' })
    await article('Three', { category: 'Notes', tags: ['forest', 'forest'] })
    await article('No category', { tags: ['desert'] })
    await article('A draft', { category: 'Essays', tags: ['ocean'], status: 'draft' })
    await article('Tomorrow', { category: 'Notes', tags: ['desert'], publishedAt: minutesFromNow(24 * 60) })
    await expectExact('created')
    expect(await publicListTotal(payload, { list: 'site' })).toBe(4)
    expect(await publicListTotal(payload, { list: 'tag', id: tag.forest! })).toBe(2)
  })

  it('follows publish and unpublish', async () => {
    await payload.update({ collection: 'articles', id: await idOf('A draft'), data: { status: 'published' } })
    await expectExact('draft published')
    await payload.update({ collection: 'articles', id: await idOf('One'), data: { status: 'draft' } })
    await expectExact('article unpublished')
    expect(await publicListTotal(payload, { list: 'category', id: cat.Essays! })).toBe(2)
  })

  it('follows scheduling, and the publish time coming with no write', async () => {
    await payload.update({ collection: 'articles', id: await idOf('Two'), data: { publishedAt: minutesFromNow(60) } })
    await expectExact('moved to the future')
    const soon = await article('Soon', { category: 'Essays', tags: ['ocean'], author: 'otherAuthor', publishedAt: new Date(Date.now() + 1500).toISOString() })
    const before = await publicListTotal(payload, { list: 'tag', id: tag.ocean! })
    await expectExact('scheduled 1.5 s ahead')
    await new Promise((resolve) => setTimeout(resolve, 2000))
    // Nothing was written: the article's time came.
    expect((await query<{ n: string }>(payload, `select count(*) as n from articles where id = $1 and published_at <= now()`, [soon.id]))[0]!.n).toBe('1')
    expect(await publicListTotal(payload, { list: 'tag', id: tag.ocean! })).toBe(before + 1)
    await expectExact('its time came')
  })

  it('follows category, author and tag changes', async () => {
    const three = await idOf('Three')
    await payload.update({ collection: 'articles', id: three, data: { category: cat.Essays } })
    await expectExact('category changed')
    await payload.update({ collection: 'articles', id: three, data: { category: null } as never })
    await expectExact('category removed')
    await payload.update({ collection: 'articles', id: three, data: { author: cast.otherAuthor.id } })
    await expectExact('author changed')
    await payload.update({ collection: 'articles', id: three, data: { tags: [tag.desert!, tag.ocean!] } })
    await expectExact('tags replaced')
    await payload.update({ collection: 'articles', id: three, data: { tags: [] } })
    await expectExact('tags removed')
  })

  it('follows a version restored', async () => {
    const doc = await article('Versioned', { category: 'Notes', tags: ['forest'] })
    await payload.update({ collection: 'articles', id: doc.id, data: { category: cat.Essays, tags: [tag.ocean!] } })
    await payload.update({ collection: 'articles', id: doc.id, data: { status: 'draft' } })
    await expectExact('before the restore')
    const { docs } = await payload.findVersions({ collection: 'articles', where: { parent: { equals: doc.id } }, sort: 'createdAt' })
    await payload.restoreVersion({ collection: 'articles', id: String(docs[0]!.id) })
    const restored = await payload.findByID({ collection: 'articles', id: doc.id, depth: 0 })
    expect(restored).toMatchObject({ status: 'published', category: cat.Notes, tags: [tag.forest] })
    await expectExact('first version restored')
  })

  it('follows deletes, one and in bulk, and raw SQL writes', async () => {
    await payload.delete({ collection: 'articles', id: await idOf('No category') })
    await expectExact('deleted')
    await query(payload, `update articles set status = 'draft', _status = 'draft' where title in ('Two', 'Soon')`)
    await expectExact('raw SQL unpublish of two')
    await query(payload, `update articles set status = 'published', _status = 'published' where title in ('Two', 'Soon')`)
    await expectExact('raw SQL publish of two')
    await query(payload, `insert into articles_rels ("order", parent_id, path, tags_id) select 9, id, 'tags', $1 from articles where status = 'published'`, [tag.desert])
    await expectExact('raw SQL tag on every published article')
    await payload.delete({ collection: 'articles', where: { category: { equals: cat.Essays } } })
    await expectExact('a category deleted in bulk')
    await query(payload, `delete from articles`)
    await expectExact('everything deleted')
    expect(await publicListTotal(payload, { list: 'site' })).toBe(0)
  })
})
