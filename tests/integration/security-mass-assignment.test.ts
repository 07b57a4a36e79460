/**
 * Issue 9, item 9: no client sets a server-owned field (timestamps,
 * `_verified`, counters, rendered HTML) on any collection, over REST.
 */
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { readHiddenAuthFields } from '../../src/lib/pool'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'
import { Browser } from './accounts-client'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>
let owner: Browser
let reader: Browser
let articleId: number

const FUTURE = '2099-01-01T00:00:00.000Z'
const forged = { createdAt: FUTURE, updatedAt: FUTURE }

async function signedIn(email: string): Promise<Browser> {
  const browser = new Browser(t.payload, t.databaseName)
  const { token } = await t.payload.login({ collection: 'users', data: { email, password: PASSWORD } })
  browser.cookies.set('payload-token', token!)
  return browser
}

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  cast = await createCast(t.payload)
  owner = await signedIn('owner@example.test')
  reader = await signedIn('reader@example.test')
  articleId = (
    await t.payload.create({
      collection: 'articles',
      data: { title: 'Thread', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id },
    })
  ).id
})
afterAll(() => t?.destroy())

const n = () => Math.random().toString(36).slice(2, 8)
/** A valid body for each collection a client may create over REST; the site owner holds every permission. */
const createBodies: Record<string, () => Record<string, unknown>> = {
  articles: () => ({ title: `Forged ${n()}`, format: 'markdown', markdown: 'x', status: 'published' }),
  categories: () => ({ name: `Category ${n()}` }),
  tags: () => ({ name: `tag-${n()}` }),
  replies: () => ({ article: articleId, body: 'A reply from the future' }),
  links: () => ({ title: 'Elsewhere', url: 'https://example.org/' }),
  roles: () => ({ label: 'Role', slug: `role-${n()}` }),
  permissions: () => ({ label: 'Permission', slug: `custom.${n()}` }),
  users: () => ({ email: `u${n()}@example.test`, name: 'New', password: PASSWORD }),
}

function expectServerTime(doc: { createdAt: string; updatedAt: string }) {
  for (const key of ['createdAt', 'updatedAt'] as const) expect(new Date(doc[key]).getFullYear(), key).toBeLessThan(2099)
}

describe('timestamps', () => {
  it.each(Object.keys(createBodies))('%s: a client cannot date a new document or re-date an existing one', async (slug) => {
    const created = await owner.request(`/api/${slug}`, { json: { ...createBodies[slug]!(), ...forged } })
    expect(created.status, await created.text()).toBe(201)
    const { doc } = await created.json()
    expectServerTime(doc)
    const updated = await owner.request(`/api/${slug}/${doc.id}`, { method: 'PATCH', json: forged })
    expect(updated.status).toBe(200)
    const stored = await t.payload.findByID({ collection: slug as 'tags', id: doc.id, depth: 0 })
    expectServerTime(stored as never)
    expect(stored.createdAt).toBe(doc.createdAt)
  })

  it('media: an upload cannot be dated either', async () => {
    const form = new FormData()
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer()
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'dot.png')
    form.set('_payload', JSON.stringify({ alt: 'dot', ...forged }))
    const created = await owner.request('/api/media', { method: 'POST', body: form })
    expect(created.status, await created.text()).toBe(201)
    expectServerTime((await created.json()).doc)
  })

  it('notifications: a recipient cannot re-date theirs', async () => {
    const note = await t.payload.create({ collection: 'notifications', data: { recipient: cast.reader.id, kind: 'reply', article: articleId } })
    const updated = await reader.request(`/api/notifications/${note.id}`, { method: 'PATCH', json: forged })
    expect(updated.status).toBe(200)
    expectServerTime((await t.payload.findByID({ collection: 'notifications', id: note.id })) as never)
  })

  it('a reply dated 2099 does not pin its article to the top of "latest replies"', async () => {
    await reader.request('/api/replies', { json: { article: articleId, body: 'Pinned?', ...forged } })
    const article = await t.payload.findByID({ collection: 'articles', id: articleId, depth: 0 })
    expect(new Date(article.lastReplyAt!).getTime()).toBeLessThanOrEqual(Date.now())
  })
})

describe('other server-owned fields', () => {
  it('no client sets _verified: not a reader on themselves, not a user manager on anyone', async () => {
    const pending = await t.payload.create({ collection: 'users', data: { email: 'pending@example.test', name: 'P', password: PASSWORD } })
    await t.payload.db.updateOne({ collection: 'users', id: pending.id, data: { _verified: false } })
    const attempts = [
      [reader, cast.reader.id, false],
      [owner, pending.id, true],
    ] as const
    for (const [browser, id, value] of attempts) {
      const reply = await browser.request(`/api/users/${id}`, { method: 'PATCH', json: { _verified: value, introduction: 'Hello' } })
      expect(reply.status, await reply.text()).toBe(200)
      const row = await readHiddenAuthFields(t.payload, id)
      expect(row!._verified).toBe(!value)
    }
  })

  it('counters and rendered HTML of an article stay the server\'s', async () => {
    const created = await owner.request('/api/articles', {
      json: { title: `Counted ${n()}`, format: 'markdown', markdown: 'hello', status: 'published', viewCount: 999, replyCount: 7, html: '<script>x</script>' },
    })
    const { doc } = await created.json()
    expect(doc.viewCount).toBe(0)
    expect(doc.replyCount).toBe(0)
    expect(doc.html).not.toContain('<script>')
  })
})
