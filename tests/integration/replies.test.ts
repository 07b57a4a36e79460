/** Reply counters stay right through concurrent creates and deletes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  cast = await createCast(t.payload)
})
afterAll(() => t?.destroy())

describe('article reply statistics', () => {
  it('match the replies table after concurrent creates and deletes', async () => {
    const article = await t.payload.create({
      collection: 'articles',
      data: { title: 'Busy thread', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id },
    })
    const users = [cast.reader, cast.otherAuthor, cast.admin, cast.owner]
    const replies = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        t.payload.create({ collection: 'replies', data: { article: article.id, body: `Reply ${i}` }, overrideAccess: false, user: users[i % users.length] }),
      ),
    )
    await Promise.all(replies.slice(0, 8).map((r) => t.payload.delete({ collection: 'replies', id: r.id })))

    const stored = await t.payload.findByID({ collection: 'articles', id: article.id, depth: 0 })
    const remaining = await t.payload.find({ collection: 'replies', where: { article: { equals: article.id } }, sort: '-createdAt', limit: 100 })
    expect(remaining.totalDocs).toBe(16)
    expect(stored.replyCount).toBe(16)
    expect(new Date(stored.lastReplyAt!).getTime()).toBe(new Date(remaining.docs[0]!.createdAt).getTime())
  })

  it('refuses empty and too long replies with a message naming the field, storing nothing', async () => {
    const article = await t.payload.create({
      collection: 'articles',
      data: { title: 'Quiet thread', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id },
    })
    for (const body of ['   ', 'x'.repeat(5001)]) {
      await expect(
        t.payload.create({ collection: 'replies', data: { article: article.id, body }, overrideAccess: false, user: cast.reader }),
      ).rejects.toThrow(/body/i)
    }
    expect((await t.payload.count({ collection: 'replies', where: { article: { equals: article.id } } })).totalDocs).toBe(0)
  })
})

describe('reply flood limit', () => {
  it('answers 429 with a clear message once an account posts too many replies in a minute, storing nothing more', async () => {
    const { Browser } = await import('./accounts-client')
    const article = await t.payload.create({
      collection: 'articles',
      data: { title: 'Flooded thread', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id },
    })
    const { token } = await t.payload.login({ collection: 'users', data: { email: 'reader@example.test', password: 'correct horse battery staple' } })
    const browser = new Browser(t.payload, t.databaseName)
    const post = (i: number) =>
      browser.request('/api/replies', { method: 'POST', json: { article: article.id, body: `Flood ${i}` }, headers: { authorization: `JWT ${token}` } })
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await post(i)).status)
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true)
    const refused = await post(99)
    expect(refused.status).toBe(429)
    expect((await refused.json()).errors[0].message).toMatch(/replying too fast/i)
    expect((await t.payload.count({ collection: 'replies', where: { article: { equals: article.id } } })).totalDocs).toBe(10)
  })
})

describe('deleting an article', () => {
  it('deletes its replies with it, answers included, for its author over the Local API with access on', async () => {
    const article = await t.payload.create({
      collection: 'articles',
      data: { title: 'Soon gone', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id },
    })
    const top = await t.payload.create({ collection: 'replies', data: { article: article.id, body: 'A question' }, overrideAccess: false, user: cast.reader })
    await t.payload.create({ collection: 'replies', data: { article: article.id, body: 'An answer', parent: top.id }, overrideAccess: false, user: cast.otherAuthor })
    const other = await t.payload.create({
      collection: 'articles',
      data: { title: 'Stays', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id },
    })
    await t.payload.create({ collection: 'replies', data: { article: other.id, body: 'Kept' }, overrideAccess: false, user: cast.reader })

    await t.payload.delete({ collection: 'articles', id: article.id, overrideAccess: false, user: cast.author })

    expect((await t.payload.count({ collection: 'replies', where: { article: { equals: article.id } } })).totalDocs).toBe(0)
    expect((await t.payload.count({ collection: 'articles', where: { id: { equals: article.id } } })).totalDocs).toBe(0)
    expect((await t.payload.count({ collection: 'replies', where: { article: { equals: other.id } } })).totalDocs).toBe(1)
  })

  it('keeps the article and its replies when its deleter may not delete it', async () => {
    const article = await t.payload.create({
      collection: 'articles',
      data: { title: 'Not yours', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id },
    })
    await t.payload.create({ collection: 'replies', data: { article: article.id, body: 'Still here' }, overrideAccess: false, user: cast.reader })
    await expect(t.payload.delete({ collection: 'articles', id: article.id, overrideAccess: false, user: cast.otherAuthor })).rejects.toThrow()
    expect((await t.payload.count({ collection: 'replies', where: { article: { equals: article.id } } })).totalDocs).toBe(1)
  })
})
