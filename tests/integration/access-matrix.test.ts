/**
 * Who may do what, for every collection: anonymous, reader, author, another
 * author, administrator and site owner × create / read / update / delete,
 * through the Local API with access enforced (as the REST API enforces it).
 */
import type { CollectionSlug, Payload } from 'payload'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { User } from '../../src/payload-types'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'

type Actor = 'anonymous' | 'reader' | 'author' | 'otherAuthor' | 'admin' | 'owner'
const ACTORS: Actor[] = ['anonymous', 'reader', 'author', 'otherAuthor', 'admin', 'owner']
type Op = 'create' | 'read' | 'update' | 'delete'
type Cast = Awaited<ReturnType<typeof createCast>>

let t: TestPayload
let payload: Payload
let cast: Cast
let categoryId: number
let png: Buffer

beforeAll(async () => {
  t = await createTestPayload()
  payload = t.payload
  cast = await createCast(payload)
  categoryId = (await payload.create({ collection: 'categories', data: { name: 'General' } })).id
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer()
})
afterAll(() => t?.destroy())

const userOf = (actor: Actor): User | undefined => (actor === 'anonymous' ? undefined : cast[actor])
const as = (actor: Actor) => ({ overrideAccess: false, user: userOf(actor) }) as const

/** Runs an operation as the actor; 'denied' when Payload refuses (403) or hides the row (404). */
async function attempt(fn: () => Promise<unknown>): Promise<'allowed' | 'denied'> {
  try {
    await fn()
    return 'allowed'
  } catch (error) {
    const status = (error as { status?: number }).status
    if (status === 403 || status === 404 || status === 401) return 'denied'
    throw error
  }
}

let counter = 0
const unique = (prefix: string) => `${prefix}-${++counter}`

/** A fresh document owned as the rules expect (made with access overridden). */
const fixtures: Record<string, () => Promise<{ id: number }>> = {
  articles: () =>
    payload.create({ collection: 'articles', data: { title: unique('Article'), format: 'markdown', markdown: 'Hello', status: 'published', author: cast.author.id, category: categoryId } }),
  drafts: () => payload.create({ collection: 'articles', data: { title: unique('Draft'), format: 'markdown', markdown: 'Secret', status: 'draft', author: cast.author.id } }),
  replies: async () => {
    const article = await fixtures.articles!()
    return payload.create({ collection: 'replies', data: { article: article.id, author: cast.reader.id, body: 'Nice' } })
  },
  categories: () => payload.create({ collection: 'categories', data: { name: unique('Category') } }),
  tags: () => payload.create({ collection: 'tags', data: { name: unique('tag') } }),
  links: () => payload.create({ collection: 'links', data: { title: unique('Link'), url: 'https://example.com' } }),
  notifications: () => payload.create({ collection: 'notifications', data: { recipient: cast.author.id, kind: 'reply' } }),
  roles: () => payload.create({ collection: 'roles', data: { slug: unique('role'), label: 'Temp' } }),
  permissions: () => payload.create({ collection: 'permissions', data: { slug: unique('temp.perm').replace('-', '.'), label: 'Temp' } }),
  users: () => payload.create({ collection: 'users', data: { email: `${unique('victim')}@example.test`, password: 'long enough password', name: 'Victim' } }),
  media: () =>
    payload.create({ collection: 'media', data: { alt: 'Owned by the author', owner: cast.author.id }, file: { data: png, mimetype: 'image/png', name: `${unique('pic')}.png`, size: png.length } }),
}

const createData: Record<string, () => Record<string, unknown>> = {
  articles: () => ({ title: unique('New article'), markdown: '# Hi' }),
  replies: () => ({ body: 'A reply' }),
  categories: () => ({ name: unique('New category') }),
  tags: () => ({ name: unique('newtag') }),
  links: () => ({ title: 'New link', url: 'https://example.org' }),
  notifications: () => ({ recipient: cast.author.id, kind: 'reply' }),
  roles: () => ({ slug: unique('newrole'), label: 'New role' }),
  permissions: () => ({ slug: unique('new.perm').replace('-', '.'), label: 'New permission' }),
  users: () => ({ email: `${unique('signup')}@example.test`, password: 'long enough password', name: 'New' }),
  media: () => ({ alt: 'New upload' }),
}

const updateData: Record<string, Record<string, unknown>> = {
  articles: { title: 'Edited title' },
  drafts: { title: 'Edited draft' },
  replies: { body: 'Edited reply' },
  categories: { description: 'Edited' },
  tags: { slug: 'edited-tag-slug' },
  links: { title: 'Edited link' },
  notifications: { readAt: new Date().toISOString() },
  roles: { label: 'Edited role' },
  permissions: { label: 'Edited permission' },
  users: { name: 'Edited name' },
  media: { alt: 'Edited alt' },
}

// The expected matrix. 'Y' allowed, '-' denied, per actor in ACTORS order:
//                                anon reader author other admin owner
const MATRIX: Record<string, Record<Op, string>> = {
  articles:      { create: '--YYYY', read: 'YYYYYY', update: '--Y-YY', delete: '--Y-YY' },
  drafts:        { create: '--YYYY', read: '--Y-YY', update: '--Y-YY', delete: '--Y-YY' },
  replies:       { create: '-YYYYY', read: 'YYYYYY', update: '-Y--YY', delete: '-Y--YY' },
  categories:    { create: '----YY', read: 'YYYYYY', update: '----YY', delete: '----YY' },
  tags:          { create: '--YYYY', read: 'YYYYYY', update: '----YY', delete: '----YY' },
  links:         { create: '----YY', read: 'YYYYYY', update: '----YY', delete: '----YY' },
  notifications: { create: '------', read: '--Y-YY', update: '--Y-YY', delete: '--Y-YY' },
  roles:         { create: '-----Y', read: 'YYYYYY', update: '-----Y', delete: '-----Y' },
  permissions:   { create: '-----Y', read: 'YYYYYY', update: '-----Y', delete: '-----Y' },
  media:         { create: '-YYYYY', read: 'YYYYYY', update: '--Y-YY', delete: '--Y-YY' },
  users:         { create: 'YYYYYY', read: 'YYYYYY', update: '----YY', delete: '----YY' },
}

function collectionOf(name: string): CollectionSlug {
  return (name === 'drafts' ? 'articles' : name) as CollectionSlug
}

async function run(name: string, op: Op, actor: Actor): Promise<'allowed' | 'denied'> {
  const collection = collectionOf(name)
  if (op === 'create') {
    const data = createData[collection]!()
    if (collection === 'replies') data.article = (await fixtures.articles!()).id
    const file = collection === 'media' ? { file: { data: png, mimetype: 'image/png', name: `${unique('up')}.png`, size: png.length } } : {}
    return attempt(() => payload.create({ collection, data: data as never, ...file, ...as(actor) }))
  }
  const doc = await fixtures[name]!()
  if (op === 'read') return attempt(() => payload.findByID({ collection, id: doc.id, ...as(actor) }))
  if (op === 'update') {
    // Unique fields get a unique value, so a second permitted edit never collides.
    const data = Object.fromEntries(Object.entries(updateData[name]!).map(([k, v]) => [k, k === 'slug' ? unique(String(v)) : v]))
    return attempt(() => payload.update({ collection, id: doc.id, data: data as never, ...as(actor) }))
  }
  return attempt(() => payload.delete({ collection, id: doc.id, ...as(actor) }))
}

const cases = Object.entries(MATRIX).flatMap(([name, ops]) =>
  (Object.entries(ops) as [Op, string][]).flatMap(([op, row]) =>
    ACTORS.map((actor, i) => ({ name, op, actor, expected: row[i] === 'Y' ? 'allowed' : 'denied' })),
  ),
)

describe('access matrix', () => {
  it.each(cases)('$actor $op $name → $expected', async ({ name, op, actor, expected }) => {
    expect(await run(name, op as Op, actor as Actor)).toBe(expected)
  })

  it('lets a user update their own profile but nobody else’s', async () => {
    const own = await attempt(() => payload.update({ collection: 'users', id: cast.reader.id, data: { name: 'Me' }, ...as('reader') }))
    const other = await attempt(() => payload.update({ collection: 'users', id: cast.author.id, data: { name: 'Hacked' }, ...as('reader') }))
    expect([own, other]).toEqual(['allowed', 'denied'])
  })

  it.each([
    ['anonymous', 'site-settings', 'read', 'allowed'],
    ['reader', 'site-settings', 'update', 'denied'],
    ['author', 'site-settings', 'update', 'denied'],
    ['admin', 'site-settings', 'update', 'allowed'],
    ['owner', 'site-settings', 'update', 'allowed'],
  ] as const)('%s %s %s → %s', async (actor, _slug, op, expected) => {
    const outcome =
      op === 'read'
        ? await attempt(() => payload.findGlobal({ slug: 'site-settings', ...as(actor) }))
        : await attempt(() => payload.updateGlobal({ slug: 'site-settings', data: { tagline: `by ${actor}` }, ...as(actor) }))
    expect(outcome).toBe(expected)
  })

  it('lists only published articles to the public, and own drafts to their author', async () => {
    const draft = await fixtures.drafts!()
    const ids = async (actor: Actor) =>
      (await payload.find({ collection: 'articles', limit: 1000, depth: 0, ...as(actor) })).docs.map((d) => d.id)
    expect(await ids('anonymous')).not.toContain(draft.id)
    expect(await ids('reader')).not.toContain(draft.id)
    expect(await ids('otherAuthor')).not.toContain(draft.id)
    expect(await ids('author')).toContain(draft.id)
    expect(await ids('admin')).toContain(draft.id)
  })

  it('admits to the admin panel only roles holding admin.access', async () => {
    const adminAccess = payload.collections.users.config.access.admin!
    const canEnter = (actor: Actor) =>
      adminAccess({ req: { user: { ...userOf(actor)!, collection: 'users' }, payload, context: {} } as never })
    expect(await canEnter('reader')).toBe(false)
    expect(await canEnter('author')).toBe(true)
    expect(await canEnter('admin')).toBe(true)
    expect(await canEnter('owner')).toBe(true)
  })
})

describe('mass assignment', () => {
  const readRoles = async (id: number) =>
    ((await payload.findByID({ collection: 'users', id, depth: 1 })).roles ?? []).map((r) => (typeof r === 'object' ? r.slug : r))

  it('ignores a user giving themself a role', async () => {
    const owner = await payload.find({ collection: 'roles', where: { slug: { equals: 'site-owner' } }, depth: 0 })
    await payload.update({ collection: 'users', id: cast.reader.id, data: { roles: [owner.docs[0]!.id] }, ...as('reader') })
    expect(await readRoles(cast.reader.id)).toEqual(['reader'])
  })

  it('ignores an administrator (without roles.manage) changing roles, honours the site owner', async () => {
    const author = await payload.find({ collection: 'roles', where: { slug: { equals: 'author' } }, depth: 0 })
    const victim = await fixtures.users!()
    await payload.update({ collection: 'users', id: victim.id, data: { roles: [author.docs[0]!.id] }, ...as('admin') })
    expect(await readRoles(victim.id)).toEqual(['reader'])
    await payload.update({ collection: 'users', id: victim.id, data: { roles: [author.docs[0]!.id] }, ...as('owner') })
    expect(await readRoles(victim.id)).toEqual(['author'])
  })

  it('stamps the author of a new article and ignores author and counters sent by an author', async () => {
    const created = await payload.create({
      collection: 'articles',
      data: { title: unique('Mine'), markdown: 'x', author: cast.otherAuthor.id, viewCount: 999, replyCount: 50 } as never,
      ...as('author'),
    })
    const stored = await payload.findByID({ collection: 'articles', id: created.id, depth: 0 })
    expect(stored.author).toBe(cast.author.id)
    expect(stored.viewCount).toBe(0)
    expect(stored.replyCount).toBe(0)

    await payload.update({
      collection: 'articles',
      id: created.id,
      data: { author: cast.otherAuthor.id, viewCount: 12345, html: '<script>alert(1)</script>' } as never,
      ...as('author'),
    })
    const after = await payload.findByID({ collection: 'articles', id: created.id, depth: 0 })
    expect(after.author).toBe(cast.author.id)
    expect(after.viewCount).toBe(0)
    expect(after.html).not.toContain('<script')
  })

  it('ignores activity and notification counters sent by the user', async () => {
    await payload.update({
      collection: 'users',
      id: cast.reader.id,
      data: { activedAt: '2000-01-01T00:00:00.000Z', unreadNotifications: 99 } as never,
      ...as('reader'),
    })
    const me = await payload.findByID({ collection: 'users', id: cast.reader.id, depth: 0 })
    // Shown: the last activity the server recorded, else the registration time; never the sent value.
    expect(me.activedAt).not.toBe('2000-01-01T00:00:00.000Z')
    expect(me.unreadNotifications ?? 0).toBe(0)
  })

  it('hides e-mail addresses from everyone but their owner and user managers', async () => {
    const seen = async (actor: Actor) => (await payload.findByID({ collection: 'users', id: cast.author.id, ...as(actor) })).email
    expect(await seen('anonymous')).toBeUndefined()
    expect(await seen('reader')).toBeUndefined()
    expect(await seen('author')).toBe('author@example.test')
    expect(await seen('admin')).toBe('author@example.test')
  })

  it('stamps the reply author and keeps a reader from moving a reply to another article', async () => {
    const article = await fixtures.articles!()
    const other = await fixtures.articles!()
    const reply = await payload.create({
      collection: 'replies',
      data: { article: article.id, body: 'Mine', author: cast.owner.id },
      ...as('reader'),
    })
    expect(reply.author && typeof reply.author === 'object' ? reply.author.id : reply.author).toBe(cast.reader.id)
    await payload.update({ collection: 'replies', id: reply.id, data: { article: other.id }, ...as('reader') })
    const stored = await payload.findByID({ collection: 'replies', id: reply.id, depth: 0 })
    expect(stored.article).toBe(article.id)
  })
})

describe('data-driven permissions', () => {
  it('changes what a role may do as soon as its permissions are edited, with no restart', async () => {
    const reader = (await payload.find({ collection: 'roles', where: { slug: { equals: 'reader' } }, depth: 0 })).docs[0]!
    const manage = (await payload.find({ collection: 'permissions', where: { slug: { equals: 'categories.manage' } }, depth: 0 })).docs[0]!
    const tryCreate = () => attempt(() => payload.create({ collection: 'categories', data: { name: unique('ByReader') }, ...as('reader') }))

    expect(await tryCreate()).toBe('denied')
    const before = (reader.permissions ?? []).map((p) => (typeof p === 'object' ? p.id : p))
    await payload.update({ collection: 'roles', id: reader.id, data: { permissions: [...before, manage.id] }, ...as('owner') })
    expect(await tryCreate()).toBe('allowed')
    await payload.update({ collection: 'roles', id: reader.id, data: { permissions: before }, ...as('owner') })
    expect(await tryCreate()).toBe('denied')
  })

  it('reads what a role holds once per process, not once per Local API call, and again when a permission changes', async () => {
    // Counts the roles the database hands back (a read of the collection, whoever asks).
    let roleReads = 0
    const countRead = () => {
      roleReads++
    }
    const hooks = payload.collections.roles.config.hooks
    hooks.afterRead = [...(hooks.afterRead ?? []), countRead]
    try {
      const list = () => payload.find({ collection: 'articles', depth: 1, limit: 5, ...as('author') })
      await list()
      roleReads = 0
      // Each call is its own request context, as each of a signed-in page's calls is.
      for (let i = 0; i < 5; i++) await list()
      expect(roleReads).toBe(0)

      // Renaming a permission the role holds is a change of what it holds: asked again, and the new answer holds.
      const manage = (await payload.find({ collection: 'permissions', where: { slug: { equals: 'categories.manage' } }, depth: 0 })).docs[0]!
      const author = (await payload.find({ collection: 'roles', where: { slug: { equals: 'author' } }, depth: 0 })).docs[0]!
      const before = (author.permissions ?? []).map((p) => (typeof p === 'object' ? p.id : p))
      const tryCreate = () => attempt(() => payload.create({ collection: 'categories', data: { name: unique('ByAuthor') }, ...as('author') }))
      expect(await tryCreate()).toBe('denied')
      await payload.update({ collection: 'roles', id: author.id, data: { permissions: [...before, manage.id] }, ...as('owner') })
      try {
        expect(await tryCreate()).toBe('allowed')
        await payload.update({ collection: 'permissions', id: manage.id, data: { slug: 'categories.manage-renamed' }, ...as('owner') })
        expect(await tryCreate()).toBe('denied')
      } finally {
        await payload.update({ collection: 'permissions', id: manage.id, data: { slug: 'categories.manage' }, overrideAccess: true })
        await payload.update({ collection: 'roles', id: author.id, data: { permissions: before }, overrideAccess: true })
      }
      expect(await tryCreate()).toBe('denied')
    } finally {
      hooks.afterRead = (hooks.afterRead ?? []).filter((hook) => hook !== countRead)
    }
  })

  it('refuses to strip the last site owner of the role, or delete them', async () => {
    const reader = (await payload.find({ collection: 'roles', where: { slug: { equals: 'reader' } }, depth: 0 })).docs[0]!
    await expect(
      payload.update({ collection: 'users', id: cast.owner.id, data: { roles: [reader.id] }, ...as('owner') }),
    ).rejects.toThrow(/last site owner/)
    await expect(payload.delete({ collection: 'users', id: cast.owner.id, ...as('owner') })).rejects.toThrow(/last site owner/)
  })

  it('refuses to delete a built-in role', async () => {
    const author = (await payload.find({ collection: 'roles', where: { slug: { equals: 'author' } }, depth: 0 })).docs[0]!
    await expect(payload.delete({ collection: 'roles', id: author.id, ...as('owner') })).rejects.toThrow(/built-in/)
  })
})
