/**
 * `export:json` / `import:json` (issue 30): a seeded site (users with roles,
 * an uploaded image, terms, a Markdown article, a Chinese one, a rich-text one
 * with the image in it, a draft, replies in a thread and in every moderation
 * state, a follow, settings, view counts) is exported, imported into an empty
 * site, and exported again: the two exports are equal once ids, exportedAt and
 * the media URLs are set aside. A second import changes nothing, a dry run
 * writes nothing, and bad files are refused naming the wrong field.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { CommandFailure, registeredCommands } from '../../jobs/commands'
import { query } from '../../src/lib/pool'
import { editorState, paragraph, text, upload } from '../fixtures/lexical'
import { createTestPayload, type TestPayload, type TestPayloadOptions } from '../helpers/payload'

let source: TestPayload
let target: TestPayload
const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-json-'))
const io = (out: string[] = []) => ({ log: (l: string) => void out.push(l), progress: () => {} })
const run = (t: TestPayload, name: string, args: string[], out: string[] = []) => registeredCommands(t.payload).commands.find((c) => c.name === name)!.run(t.payload, io(out), args)
const exportOf = (folder: string) => JSON.parse(readFileSync(path.join(folder, 'inkwell.json'), 'utf8')) as Record<string, any>

async function seed(p: TestPayload['payload']) {
  const role = async (slug: string) => (await p.find({ collection: 'roles', where: { slug: { equals: slug } }, overrideAccess: true })).docs[0]!.id
  const owner = await p.create({ collection: 'users', data: { email: 'owner@example.com', name: 'Owner', password: 'correct horse battery staple 1' } as never, overrideAccess: true, disableVerificationEmail: true })
  const writer = await p.create({ collection: 'users', data: { email: 'writer@example.com', name: '作者', password: 'correct horse battery staple 2', introduction: 'I write.' } as never, overrideAccess: true, disableVerificationEmail: true })
  await p.update({ collection: 'users', id: writer.id, data: { roles: [await role('author')] } as never, overrideAccess: true })
  const reader = await p.create({ collection: 'users', data: { email: 'reader@example.com', name: 'Reader', password: 'correct horse battery staple 3' } as never, overrideAccess: true, disableVerificationEmail: true })
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c00' } }).png().toBuffer()
  const image = await p.create({ collection: 'media', data: { alt: 'A red square', owner: writer.id } as never, file: { data: png, name: 'red.png', size: png.length, mimetype: 'image/png' }, overrideAccess: true })
  await p.update({ collection: 'users', id: writer.id, data: { avatar: image.id } as never, overrideAccess: true })
  const news = await p.create({ collection: 'categories', data: { name: 'News', description: 'What happened' } as never, overrideAccess: true })
  const tagA = await p.create({ collection: 'tags', data: { name: 'alpha' } as never, overrideAccess: true })
  const tagB = await p.create({ collection: 'tags', data: { name: '中文' } as never, overrideAccess: true })
  const base = { status: 'published', author: writer.id, category: news.id }
  const first = await p.create({
    collection: 'articles',
    data: { ...base, title: 'Hello world', format: 'markdown', markdown: `# Hi\n\nSome **bold** text and ![red](${image.url}).`, tags: [tagA.id], publishedAt: '2024-03-01T10:00:00.000Z', meta: { title: 'SEO hello', description: 'SEO description' } } as never,
    overrideAccess: true,
  })
  const chinese = await p.create({
    collection: 'articles',
    data: { ...base, title: '你好，世界', format: 'markdown', markdown: '这是一篇中文文章。\n\n第二段。', tags: [tagA.id, tagB.id], publishedAt: '2024-03-02T10:00:00.000Z' } as never,
    overrideAccess: true,
  })
  await p.create({
    collection: 'articles',
    data: { ...base, title: 'Rich text', format: 'html', content: editorState(paragraph(text('Rich '), text('bold', 1)), upload(image.id as number, 'A red square')), publishedAt: '2024-03-03T10:00:00.000Z' } as never,
    overrideAccess: true,
  })
  await p.create({ collection: 'articles', data: { title: 'A draft', format: 'markdown', markdown: 'Not yet.', status: 'draft', author: writer.id } as never, overrideAccess: true })
  await query(p, 'update articles set view_count = 42 where id = $1', [chinese.id])
  // Replies: a thread on the Chinese article, and one in each moderation state.
  const top = await p.create({ collection: 'replies', data: { article: chinese.id, body: '写得好！' } as never, overrideAccess: true, user: reader as never })
  await p.create({ collection: 'replies', data: { article: chinese.id, parent: top.id, body: '谢谢' } as never, overrideAccess: true, user: writer as never })
  for (const status of ['held', 'spam', 'trash']) {
    const r = await p.create({ collection: 'replies', data: { article: first.id, body: `A ${status} reply` } as never, overrideAccess: true, user: reader as never })
    await query(p, 'update replies set status = $2 where id = $1', [r.id, status])
  }
  await query(p, `update articles a set reply_count = (select count(*) from replies r where r.article_id = a.id and r.status = 'published')`)
  await p.create({ collection: 'follows', data: { article: chinese.id, follower: reader.id } as never, overrideAccess: true, user: reader as never })
  await p.updateGlobal({ slug: 'site-settings' as never, data: { siteName: '墨水 Ink', tagline: 'Moved with everything', defaultRole: await role('author') } as never, overrideAccess: true })
  return { owner }
}

/** An export with what differs between two sites set aside: ids (each item's position instead), exportedAt, site and media URLs. */
function comparable(data: Record<string, any>) {
  const index: Record<string, Map<number, number>> = {}
  for (const s of ['users', 'media', 'categories', 'tags', 'articles', 'replies', 'follows']) index[s] = new Map(data[s].map((x: { id: number }, i: number) => [x.id, i]))
  const ref = (s: string, id: unknown) => (typeof id === 'number' ? (index[s]!.get(id) ?? `missing ${s} ${id}`) : id)
  const deep = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(deep)
    if (value && typeof value === 'object') {
      const o = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v)])) as Record<string, unknown>
      if (o.type === 'upload' && o.relationTo === 'media') o.value = ref('media', (value as { value: unknown }).value)
      return o
    }
    return value
  }
  return {
    format: data.format,
    version: data.version,
    settings: data.settings,
    users: data.users.map((u: any) => ({ ...u, id: undefined, avatar: ref('media', u.avatar) })),
    media: data.media.map((m: any) => ({ ...m, id: undefined, url: undefined, owner: ref('users', m.owner) })),
    categories: data.categories.map((c: any) => ({ ...c, id: undefined })),
    tags: data.tags.map((t: any) => ({ ...t, id: undefined })),
    articles: data.articles.map((a: any) => ({
      ...(deep(a) as object),
      id: undefined,
      author: ref('users', a.author),
      category: ref('categories', a.category),
      tags: a.tags.map((t: number) => ref('tags', t)),
      meta: a.meta ? { ...a.meta, image: ref('media', a.meta.image) } : a.meta,
    })),
    replies: data.replies.map((r: any) => ({ ...r, id: undefined, article: ref('articles', r.article), parent: ref('replies', r.parent), author: ref('users', r.author) })),
    follows: data.follows.map((f: any) => ({ ...f, id: undefined, article: ref('articles', f.article), follower: ref('users', f.follower) })),
  }
}

/**
 * A config built for the instance alone: the app's payload.config module is
 * built once per process, so a second instance from it would use the first
 * one's database and upload folder.
 */
const own: TestPayloadOptions = { plugins: (compose, env) => compose(env) }

beforeAll(async () => {
  source = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  await seed(source.payload)
  target = await createTestPayload({ QUEUE_CONNECTION: 'sync' }, own)
}, 120_000)

afterAll(async () => {
  await source?.destroy()
  await target?.destroy()
})

describe('export:json → import:json → export:json', () => {
  const first = path.join(dir, 'first')
  const second = path.join(dir, 'second')

  it('writes one document with a format header, users without password hashes, and the media files', async () => {
    const summary = await run(source, 'export:json', [first])
    expect(summary).toMatch(/^exported 3 users, 1 media, 1 categories, 2 tags, 4 articles, 5 replies, 1 follows and the settings/)
    const data = exportOf(first)
    expect(data).toMatchObject({ format: 'inkwell-export', version: 1, site: 'http://localhost:3000' })
    const text = readFileSync(path.join(first, 'inkwell.json'), 'utf8')
    expect(text).not.toMatch(/"(hash|salt|password|resetPasswordToken|sessions)"/)
    expect(data.settings).toMatchObject({ siteName: '墨水 Ink', defaultRole: 'author' })
    expect(data.users.map((u: any) => [u.email, u.roles])).toEqual([
      ['owner@example.com', ['site-owner']],
      ['writer@example.com', ['author']],
      ['reader@example.com', ['reader']],
    ])
    const zh = data.articles.find((a: any) => a.title === '你好，世界')
    expect(zh).toMatchObject({ language: 'zh-CN', viewCount: 42, replyCount: 2, status: 'published', publishedAt: '2024-03-02T10:00:00.000Z' })
    expect(data.articles.find((a: any) => a.title === 'Rich text')).toMatchObject({ format: 'html' })
    expect(data.replies.map((r: any) => r.status).sort()).toEqual(['held', 'published', 'published', 'spam', 'trash'])
    expect(readFileSync(path.join(first, 'media', data.media[0].filename)).subarray(1, 4).toString()).toBe('PNG')
  })

  it('imports into an empty site, and exporting that site gives the same document', async () => {
    const out: string[] = []
    const summary = await run(target, 'import:json', [first], out)
    expect(summary).toMatch(/^imported \d+ items, 0 already there, 0 skipped, 0 failed$/)
    await run(target, 'export:json', [second])
    expect(comparable(exportOf(second))).toEqual(comparable(exportOf(first)))
    // The thread is kept; the moved users have no password anyone knows.
    const thread = await query<{ body: string; parent: string | null }>(target.payload, `select r.body, p.body as parent from replies r left join replies p on p.id = r.parent_id where r.body in ('写得好！', '谢谢') order by r.id`)
    expect(thread).toEqual([
      { body: '写得好！', parent: null },
      { body: '谢谢', parent: '写得好！' },
    ])
    await expect(target.payload.login({ collection: 'users', data: { email: 'writer@example.com', password: 'correct horse battery staple 2' } })).rejects.toThrow()
    // The rich-text article shows the moved image.
    const [rich] = await query<{ html: string }>(target.payload, `select html from articles where title = 'Rich text'`)
    const [moved] = await query<{ filename: string }>(target.payload, 'select filename from media')
    expect(rich!.html).toContain(moved!.filename)
  }, 120_000)

  it('a second import changes nothing', async () => {
    const before = await query<{ n: number }>(target.payload, `select (select count(*) from articles) + (select count(*) from replies) + (select count(*) from users) + (select count(*) from media) + (select count(*) from follows) + (select count(*) from tags) + (select count(*) from categories) as n`)
    const summary = await run(target, 'import:json', [first])
    expect(summary).toMatch(/^imported 0 items, \d+ already there, 0 skipped, 0 failed$/)
    const after = await query<{ n: number }>(target.payload, `select (select count(*) from articles) + (select count(*) from replies) + (select count(*) from users) + (select count(*) from media) + (select count(*) from follows) + (select count(*) from tags) + (select count(*) from categories) as n`)
    expect(after).toEqual(before)
    const third = path.join(dir, 'third')
    await run(target, 'export:json', [third])
    expect(comparable(exportOf(third))).toEqual(comparable(exportOf(first)))
  }, 120_000)

  it('a dry run prints the report and writes nothing', async () => {
    const fresh = await createTestPayload({ QUEUE_CONNECTION: 'sync' }, own)
    try {
      const out: string[] = []
      const summary = await run(fresh, 'import:json', [first, '--dry-run'], out)
      expect(summary).toMatch(/^dry run: would import \d+ items/)
      expect(out.join('\n')).toMatch(/articles\s+4\s+0\s+0\s+0/)
      const [row] = await query<{ n: number }>(fresh.payload, 'select (select count(*) from articles) + (select count(*) from users) + (select count(*) from import_reports) as n')
      expect(Number(row!.n)).toBe(0)
    } finally {
      await fresh.destroy()
    }
  }, 120_000)
})

describe('import:json reads the file as a stream', () => {
  it('brings replies a chunk at a time: an answer whose thread began 2,000 replies earlier joins that thread', async () => {
    const doc = exportOf(path.join(dir, 'first'))
    const article = doc.articles[0].id
    const last = Math.max(...doc.replies.map((r: { id: number }) => r.id))
    const reply = (id: number, body: string, parent: number | null = null) => ({ id, article, parent, author: null, guestName: 'Guest', body, status: 'published', createdAt: '2024-04-01T00:00:00.000Z' })
    const many = Array.from({ length: 2100 }, (_, i) => reply(last + 1 + i, `Streamed reply ${i}`))
    const folder = path.join(dir, 'streamed')
    cpSync(path.join(dir, 'first', 'media'), path.join(folder, 'media'), { recursive: true })
    writeFileSync(path.join(folder, 'inkwell.json'), JSON.stringify({ ...doc, replies: [...doc.replies, ...many, reply(last + 5000, 'A late answer', last + 1)] }, null, 1))
    const fresh = await createTestPayload({ QUEUE_CONNECTION: 'sync' }, own)
    try {
      const summary = await run(fresh, 'import:json', [folder])
      expect(summary).toMatch(/, 0 failed$/)
      const [late] = await query<{ parent: number | null; top: number }>(
        fresh.payload,
        `select r.parent_id as parent, (select id from replies where body = 'Streamed reply 0') as top from replies r where r.body = 'A late answer'`,
      )
      expect(late!.parent).toBe(late!.top)
      const [count] = await query<{ n: number }>(fresh.payload, `select count(*)::int as n from replies where body like 'Streamed reply %'`)
      expect(count!.n).toBe(2100)
    } finally {
      await fresh.destroy()
    }
  }, 180_000)
})

describe('import:json refuses a bad file with the path of what is wrong', () => {
  const bad = (name: string, content: string) => {
    const folder = path.join(dir, name)
    mkdirSync(folder, { recursive: true })
    writeFileSync(path.join(folder, 'inkwell.json'), content)
    return folder
  }
  const good = () => exportOf(path.join(dir, 'first'))

  it.each([
    ['not JSON', () => '{"format": "inkwell-export", "version": 1, ', /inkwell\.json: not valid JSON/],
    ['another version', () => JSON.stringify({ ...good(), version: 7 }), /version: this Inkwell reads version 1, the file is version 7/],
    ['another format', () => JSON.stringify({ format: 'wordpress' }), /format: expected "inkwell-export"/],
    ['a missing section', () => JSON.stringify({ ...good(), replies: undefined }), /replies: missing \(expected a list\)/],
    ['a missing field', () => JSON.stringify({ ...good(), articles: good().articles.map((a: any, i: number) => (i === 1 ? { ...a, title: undefined } : a)) }), /articles\[1\]\.title: missing/],
    ['a wrong type', () => JSON.stringify({ ...good(), replies: good().replies.map((r: any, i: number) => (i === 0 ? { ...r, article: 'one' } : r)) }), /replies\[0\]\.article: expected a number, found "one"/],
  ])('%s', async (name, content, message) => {
    const folder = bad(name.replace(/\s/g, '-'), content())
    const error = await run(target, 'import:json', [folder]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CommandFailure)
    expect((error as Error).message).toMatch(message)
  })

  it('a folder without an export', async () => {
    const error = await run(target, 'import:json', [path.join(dir, 'nowhere')]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CommandFailure)
    expect((error as Error).message).toMatch(/inkwell\.json: not found/)
  })
})
