/**
 * Issue 27 item 2: ownership alone never grants a write. After the owner
 * demotes an author to reader, the author's own articles are no longer
 * theirs to edit, publish or delete: not with their session (REST, GraphQL),
 * not with an access token made before the demotion, not through the Local
 * API with access enforced. The same for replies and uploads when a role
 * loses replies.create or media.create.
 */
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { User } from '../../src/payload-types'
import { cli, json } from '../helpers/cliClient'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD, roleId } from '../helpers/users'
import { graphqlRequest } from './graphql-client'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>
let authorJwt: string
let authorToken: string
let readerJwt: string

const send = (path: string, init: Parameters<typeof cli>[3] = {}) => cli(t.payload, t.databaseName, path, init)
const withAuth = (authorization: string, init: { headers?: Record<string, string>; body?: BodyInit; method?: string } = {}) => ({
  ...init,
  headers: { ...init.headers, authorization },
})

const fresh = async (user: User) => t.payload.findByID({ collection: 'users', id: user.id, depth: 0 })

async function article(status: 'draft' | 'published', author = cast.author.id) {
  return t.payload.create({ collection: 'articles', data: { title: `Mine ${Math.random()}`, format: 'markdown', markdown: 'x', status, author } })
}

async function refused(fn: () => Promise<unknown>): Promise<number> {
  try {
    await fn()
    return 200
  } catch (error) {
    return (error as { status?: number }).status ?? 500
  }
}

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  cast = await createCast(t.payload)
  authorJwt = (await t.payload.login({ collection: 'users', data: { email: 'author@example.test', password: PASSWORD } })).token!
  readerJwt = (await t.payload.login({ collection: 'users', data: { email: 'reader@example.test', password: PASSWORD } })).token!
  const made = await send('/api/access-tokens', withAuth(`JWT ${authorJwt}`, json({ name: 'deploy', scope: 'write' })))
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  authorToken = made.body.doc.token
}, 120_000)
afterAll(() => t?.destroy())

describe('a demoted author', () => {
  it('before the demotion, edits their own article by session and by token', async () => {
    const a = await article('published')
    expect((await send(`/api/articles/${a.id}`, withAuth(`JWT ${authorJwt}`, { method: 'PATCH', ...json({ title: 'Edited by session' }) }))).status).toBe(200)
    expect((await send(`/api/articles/${a.id}`, withAuth(`Bearer ${authorToken}`, { method: 'PATCH', ...json({ title: 'Edited by token' }) }))).status).toBe(200)
  })

  it('after the owner makes them a reader, edits, publishes and deletes nothing of theirs, on any path', async () => {
    const published = await article('published')
    const draft = await article('draft')
    const owner = await fresh(cast.owner)
    await t.payload.update({ collection: 'users', id: cast.author.id, data: { roles: [await roleId(t.payload, 'reader')] }, overrideAccess: false, user: owner })
    const author = await fresh(cast.author)

    // Local API with access enforced
    expect(await refused(() => t.payload.update({ collection: 'articles', id: published.id, data: { title: 'Local' }, overrideAccess: false, user: author }))).toBe(403)
    expect(await refused(() => t.payload.update({ collection: 'articles', id: draft.id, data: { status: 'published' }, overrideAccess: false, user: author }))).toBe(403)
    expect(await refused(() => t.payload.delete({ collection: 'articles', id: published.id, overrideAccess: false, user: author }))).toBe(403)
    // Bulk operations alike
    expect(
      await refused(() => t.payload.update({ collection: 'articles', where: { author: { equals: author.id } }, data: { title: 'Bulk' }, overrideAccess: false, user: author })),
    ).toBe(403)

    // REST with the session and with the token made before the demotion
    for (const authorization of [`JWT ${authorJwt}`, `Bearer ${authorToken}`]) {
      expect((await send(`/api/articles/${published.id}`, withAuth(authorization, { method: 'PATCH', ...json({ title: 'REST' }) }))).status).toBe(403)
      expect((await send(`/api/articles/${draft.id}`, withAuth(authorization, { method: 'PATCH', ...json({ status: 'published' }) }))).status).toBe(403)
      expect((await send(`/api/articles/${published.id}`, withAuth(authorization, { method: 'DELETE' }))).status).toBe(403)
    }

    // GraphQL with the session and with the token
    for (const authorization of [`JWT ${authorJwt}`, `Bearer ${authorToken}`]) {
      const update = await graphqlRequest(t, `mutation { updateArticle(id: ${published.id}, data: { title: "GraphQL" }) { id } }`, { authorization })
      expect(update.errors?.[0]?.message, JSON.stringify(update)).toMatch(/not allowed/i)
      const remove = await graphqlRequest(t, `mutation { deleteArticle(id: ${published.id}) { id } }`, { authorization })
      expect(remove.errors?.[0]?.message, JSON.stringify(remove)).toMatch(/not allowed/i)
    }

    const kept = await t.payload.findByID({ collection: 'articles', id: published.id })
    const stillDraft = await t.payload.findByID({ collection: 'articles', id: draft.id })
    expect(kept.title).not.toMatch(/Local|REST|GraphQL|Bulk/)
    expect(stillDraft.status).toBe('draft')

    // An administrator (articles.update.any) still edits it
    const admin = await fresh(cast.admin)
    expect((await t.payload.update({ collection: 'articles', id: published.id, data: { title: 'By the admin' }, overrideAccess: false, user: admin })).title).toBe('By the admin')
  })
})

describe('replies and uploads follow the same rule', () => {
  it('a reader whose role loses replies.create and media.create changes none of their replies or uploads', async () => {
    const a = await article('published', cast.otherAuthor.id)
    const reader = await fresh(cast.reader)
    const reply = await t.payload.create({ collection: 'replies', data: { article: a.id, body: 'Mine' }, overrideAccess: false, user: reader })
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer()
    const upload = await t.payload.create({
      collection: 'media',
      data: { alt: 'mine' },
      file: { data: png, mimetype: 'image/png', name: 'mine.png', size: png.length },
      overrideAccess: false,
      user: reader,
    })
    // Still allowed while the role grants it.
    await t.payload.update({ collection: 'replies', id: reply.id, data: { body: 'Mine, edited' }, overrideAccess: false, user: reader })

    // The owner takes every role away from the reader.
    await t.payload.update({ collection: 'users', id: reader.id, data: { roles: [] }, overrideAccess: false, user: await fresh(cast.owner) })
    const bare = await fresh(cast.reader)
    expect(await refused(() => t.payload.update({ collection: 'replies', id: reply.id, data: { body: 'Again' }, overrideAccess: false, user: bare }))).toBe(403)
    expect(await refused(() => t.payload.delete({ collection: 'replies', id: reply.id, overrideAccess: false, user: bare }))).toBe(403)
    expect(await refused(() => t.payload.update({ collection: 'media', id: upload.id, data: { alt: 'Again' }, overrideAccess: false, user: bare }))).toBe(403)
    expect(await refused(() => t.payload.delete({ collection: 'media', id: upload.id, overrideAccess: false, user: bare }))).toBe(403)
    expect((await send(`/api/replies/${reply.id}`, withAuth(`JWT ${readerJwt}`, { method: 'DELETE' }))).status).toBe(403)
  })
})
