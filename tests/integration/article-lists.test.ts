/**
 * A tag's page chooses its articles in SQL (collections/Articles/taggedLists.ts)
 * instead of Payload's join on the relation rows: it must list and count
 * exactly what Payload's own query does for the public, whatever the tag's
 * articles are (drafts, scheduled, tagged twice, other tags), page by page.
 */
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { publicArticlesWithTag } from '../../collections/Articles/taggedLists'
import { createTestPayload, type TestPayload } from '../helpers/payload'

let t: TestPayload
let payload: Payload
let tag: number
let other: number

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()

async function article(title: string, data: { tags: number[]; status?: 'draft' | 'published'; publishedAt?: string }) {
  return payload.create({
    collection: 'articles',
    data: { title, format: 'markdown', markdown: title, status: data.status ?? 'published', tags: data.tags, ...(data.publishedAt ? { publishedAt: data.publishedAt } : {}) },
  })
}

/** Payload's own answer, as the public sees it: the oracle. */
async function payloadsOwn(tagId: number, page: number, limit: number) {
  const found = await payload.find({
    collection: 'articles',
    where: { and: [{ status: { equals: 'published' } }, { tags: { in: [tagId] } }] },
    sort: '-publishedAt',
    select: {},
    page,
    limit,
    overrideAccess: false,
    user: null,
  })
  return { ids: found.docs.map((d) => d.id), totalDocs: found.totalDocs }
}

beforeAll(async () => {
  t = await createTestPayload()
  payload = t.payload
  tag = (await payload.create({ collection: 'tags', data: { name: 'Listed' } })).id
  other = (await payload.create({ collection: 'tags', data: { name: 'Other' } })).id
  // Seven public articles with the tag, one of them tagged twice and one with both tags.
  for (let i = 1; i <= 5; i++) await article(`Public ${i}`, { tags: [tag], publishedAt: minutesAgo(100 - i) })
  await article('Tagged twice', { tags: [tag, tag], publishedAt: minutesAgo(50) })
  await article('Both tags', { tags: [other, tag], publishedAt: minutesAgo(40) })
  // Hidden from the public: a draft and an article scheduled for tomorrow.
  await article('Draft', { tags: [tag], status: 'draft' })
  await article('Scheduled', { tags: [tag], publishedAt: new Date(Date.now() + 86_400_000).toISOString() })
  // Public, but not the tag's.
  await article('Other only', { tags: [other], publishedAt: minutesAgo(10) })
})
afterAll(() => t?.destroy())

describe("a tag's public articles", () => {
  it('lists and counts what Payload lists and counts for the public, on every page', async () => {
    const first = await publicArticlesWithTag(payload, tag, { page: 1, limit: 3 })
    expect(first.totalDocs).toBe(7)
    for (const page of [1, 2, 3]) {
      expect(await publicArticlesWithTag(payload, tag, { page, limit: 3 }), `page ${page}`).toEqual(await payloadsOwn(tag, page, 3))
    }
    expect(await publicArticlesWithTag(payload, other, { page: 1, limit: 10 })).toEqual(await payloadsOwn(other, 1, 10))
  })

  it('lists the newest first and never a draft or a scheduled article', async () => {
    const { ids } = await publicArticlesWithTag(payload, tag, { page: 1, limit: 10 })
    const { docs } = await payload.find({ collection: 'articles', where: { id: { in: ids } }, select: { title: true }, pagination: false })
    const titles = new Map(docs.map((d) => [d.id, d.title]))
    expect(ids.map((id) => titles.get(id))).toEqual(['Both tags', 'Tagged twice', 'Public 5', 'Public 4', 'Public 3', 'Public 2', 'Public 1'])
  })

  it('follows a draft published and a published article withdrawn', async () => {
    const draft = (await payload.find({ collection: 'articles', where: { title: { equals: 'Draft' } } })).docs[0]!
    await payload.update({ collection: 'articles', id: draft.id, data: { status: 'published' } })
    const withdrawn = (await payload.find({ collection: 'articles', where: { title: { equals: 'Public 1' } } })).docs[0]!
    await payload.update({ collection: 'articles', id: withdrawn.id, data: { status: 'draft' } })
    const now = await publicArticlesWithTag(payload, tag, { page: 1, limit: 10 })
    expect(now).toEqual(await payloadsOwn(tag, 1, 10))
    expect(now.ids).toContain(draft.id)
    expect(now.ids).not.toContain(withdrawn.id)
  })

  // Payload counts 0 past the last page (its count rides on the page's offset); the tag page keeps the total.
  it('answers an empty page past the end with the total still counted, and nothing for an unknown tag', async () => {
    expect(await publicArticlesWithTag(payload, tag, { page: 9, limit: 3 })).toEqual({ ids: [], totalDocs: 7 })
    expect(await publicArticlesWithTag(payload, 999_999, { page: 1, limit: 3 })).toEqual({ ids: [], totalDocs: 0 })
  })
})
