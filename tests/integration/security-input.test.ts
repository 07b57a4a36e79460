/**
 * Issue 9, items 10, 14 and 15: replies only on published articles the
 * replier can read; no control characters stored anywhere; client mistakes
 * answer 4xx with the field and the rule, never 500.
 */
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'
import { Browser } from './accounts-client'
import { graphqlRequest } from './graphql-client'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>
let owner: Browser
let author: Browser
let reader: Browser
let published: number
let draft: number

async function signedIn(email: string): Promise<Browser> {
  const browser = new Browser(t.payload, t.databaseName)
  const { token } = await t.payload.login({ collection: 'users', data: { email, password: PASSWORD } })
  browser.cookies.set('payload-token', token!)
  return browser
}

const article = (status: 'draft' | 'published', title = `Article ${Math.random()}`) =>
  t.payload.create({ collection: 'articles', data: { title, format: 'markdown', markdown: 'x', status, author: cast.author.id } })

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  cast = await createCast(t.payload)
  ;[owner, author, reader] = await Promise.all(['owner', 'author', 'reader'].map((who) => signedIn(`${who}@example.test`)))
  published = (await article('published')).id
  draft = (await article('draft')).id
})
afterAll(() => t?.destroy())

async function errorOf(reply: { status: number; json: () => Promise<any> }) {
  const body = await reply.json()
  return { status: reply.status, message: body.errors?.[0]?.message as string, fields: (body.errors?.[0]?.data?.errors ?? []) as { path: string; message: string }[] }
}

describe('replies (item 10)', () => {
  it('are accepted on a published article', async () => {
    expect((await reader.request('/api/replies', { json: { article: published, body: 'Nice' } })).status).toBe(201)
  })

  it.each([
    ['a reader', () => reader],
    ['the draft\'s own author', () => author],
    ['the site owner', () => owner],
  ])('to a draft are refused for %s, with a 400 naming the article field', async (_who, who) => {
    const { status, fields } = await errorOf(await who().request('/api/replies', { json: { article: draft, body: 'Early!' } }))
    expect(status).toBe(400)
    expect(fields[0]).toMatchObject({ path: 'article', message: expect.stringMatching(/published article/) })
  })

  it('to a draft are refused through the Local API and GraphQL too', async () => {
    await expect(
      t.payload.create({ collection: 'replies', data: { article: draft, body: 'x' }, overrideAccess: false, user: cast.reader }),
    ).rejects.toThrow(/article/i)
    const { token } = await t.payload.login({ collection: 'users', data: { email: 'reader@example.test', password: PASSWORD } })
    const result = await graphqlRequest(t, `mutation { createReply(data: { article: ${draft}, body: "x" }) { id } }`, { authorization: `JWT ${token}` })
    expect(result.errors?.[0]?.message).toMatch(/article/i)
    expect(await t.payload.count({ collection: 'replies', where: { article: { equals: draft } } })).toMatchObject({ totalDocs: 0 })
  })

  it('keep images from the site but turn third-party images into links (item 16)', async () => {
    const reply = await reader.request('/api/replies', {
      json: { article: published, body: '![pixel](https://tracker.example/p.gif) ![own](/api/media/file/own.png)' },
    })
    const { doc } = await reply.json()
    expect(doc.html).not.toContain('tracker.example/p.gif"><')
    expect(doc.html).not.toMatch(/<img[^>]+tracker/)
    expect(doc.html).toContain('<img src="/api/media/file/own.png" alt="own">')
    expect(doc.html).toContain('<a href="https://tracker.example/p.gif"')
  })

  it('are no longer listed once their article goes back to draft', async () => {
    const id = (await article('published')).id
    await reader.request('/api/replies', { json: { article: id, body: 'Seen while published' } })
    const listed = async (who: Browser) => (await (await who.request(`/api/replies?where[article][equals]=${id}`)).json()).totalDocs
    expect(await listed(new Browser(t.payload, t.databaseName))).toBe(1)
    await t.payload.update({ collection: 'articles', id, data: { status: 'draft' } })
    for (const who of [new Browser(t.payload, t.databaseName), reader, author]) expect(await listed(who)).toBe(0)
    const local = await t.payload.find({ collection: 'replies', where: { article: { equals: id } }, overrideAccess: false })
    expect(local.totalDocs).toBe(0)
  })
})

describe('characters that break storage and XML (item 14)', () => {
  const bad = [
    ['U+0000', 'a\u0000b'],
    ['U+0001', 'a\u0001b'],
    ['U+FFFF', 'a\uFFFFb'],
    ['U+D800', 'a\uD800b'],
  ] as const

  it.each(bad)('%s is refused with a 400 naming the field, in titles, excerpts and bodies', async (codePoint, text) => {
    const cases: [string, Record<string, unknown>][] = [
      ['title', { title: text }],
      ['excerpt', { title: 'Fine', excerpt: text }],
      ['markdown', { title: 'Fine', markdown: text }],
    ]
    for (const [field, data] of cases) {
      const reply = await owner.request('/api/articles', { json: { format: 'markdown', markdown: 'x', status: 'published', ...data } })
      const { status, fields, message } = await errorOf(reply)
      expect(status, field).toBe(400)
      expect(fields[0]).toMatchObject({ path: field, message: expect.stringContaining(codePoint) })
      expect(message).toContain(codePoint)
    }
  })

  it('is refused inside a rich-text body, naming the rich-text field', async () => {
    const content = { root: { type: 'root', version: 1, children: [{ type: 'paragraph', version: 1, children: [{ type: 'text', version: 1, text: 'bell\u0007' }] }] } }
    const { status, fields } = await errorOf(await owner.request('/api/articles', { json: { title: 'Rich', format: 'html', content } }))
    expect(status).toBe(400)
    expect(fields[0]).toMatchObject({ path: 'content' })
  })

  it('is refused in the site name (a global) and in replies, tags and the Local API', async () => {
    const settings = await errorOf(await owner.request('/api/globals/site-settings', { json: { siteName: 'Ink\u0001well' } }))
    expect(settings.status).toBe(400)
    expect(settings.fields[0]).toMatchObject({ path: 'siteName' })
    expect((await reader.request('/api/replies', { json: { article: published, body: 'nul\u0000' } })).status).toBe(400)
    expect((await owner.request('/api/tags', { json: { name: 'x\u0000' } })).status).toBe(400)
    const local = await t.payload.create({ collection: 'categories', data: { name: 'x\u0002' } }).catch((error) => error)
    expect(local.data.errors[0]).toMatchObject({ path: 'name', message: expect.stringContaining('U+0002') })
  })

  it('keeps tabs, line breaks and every printable character, emoji included', async () => {
    const text = 'Tab\there\r\nline 😀 中文 \u00A0 \u2028'
    const reply = await owner.request('/api/articles', { json: { title: 'Printable 😀 中文', format: 'markdown', markdown: text, excerpt: text } })
    expect(reply.status).toBe(201)
  })
})

describe('client mistakes answer 4xx, never 500 (item 15)', () => {
  it('a form-encoded POST /api/replies answers 415 naming what to send', async () => {
    const reply = await reader.request('/api/replies', {
      body: `article=${published}&body=hello`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    const { status, message } = await errorOf(reply)
    expect(status).toBe(415)
    expect(message).toMatch(/application\/json/)
  })

  it('GET /api/articles/preview answers 405 with Allow: POST, and a non-numeric id 404', async () => {
    const preview = await owner.request('/api/articles/preview')
    expect(preview.status).toBe(405)
    expect(preview.headers.get('allow')).toBe('POST')
    for (const path of ['/api/articles/abc', '/api/replies/1e3', '/api/users/%20']) {
      expect((await owner.request(path)).status, path).toBe(404)
    }
    expect((await owner.request('/api/articles/abc', { method: 'PATCH', json: { title: 'x' } })).status).toBe(404)
  })

  it('an upload whose file name holds control characters answers 400', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer()
    for (const name of ['bell\u0007.png', 'nul\u0000.png']) {
      const form = new FormData()
      form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), name)
      const { status, message } = await errorOf(await owner.request('/api/media', { method: 'POST', body: form }))
      expect(status).toBe(400)
      expect(message).toMatch(/could not be read/)
    }
  })

  it('a bare file upload (multipart without `_payload`) is still accepted', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer()
    const form = new FormData()
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'plain.png')
    expect((await owner.request('/api/media', { method: 'POST', body: form })).status).toBe(201)
  })

  it('display names refuse line breaks and other control characters, on every path (issue 27 item 7)', async () => {
    for (const name of ['Eve\r\nBcc: all@example.test', 'Eve\nAdmin', 'Tab\there', 'Bell\u0085', 'Evil\u202Egnp.exe', 'Line\u2028break']) {
      const rest = await errorOf(await reader.request(`/api/users/${cast.reader.id}`, { method: 'PATCH', json: { name } }))
      expect(rest.status, JSON.stringify(name)).toBe(400)
      expect(rest.fields).toEqual([{ label: 'Name', path: 'name', message: expect.stringMatching(/^A name is one line of visible text: remove the line break or control character U\+[0-9A-F]{4}\.$/) }])
      const form = await reader.request('/api/accounts/profile', { json: { name } })
      expect(form.status).toBe(400)
      expect(JSON.stringify(await form.json())).toContain('A name is one line of visible text')
      const graphql = await graphqlRequest(t, `mutation { updateUser(id: ${cast.reader.id}, data: { name: ${JSON.stringify(name)} }) { name } }`, {
        cookie: reader.cookieHeader(),
        'sec-fetch-site': 'same-origin',
      })
      expect(JSON.stringify(graphql.errors)).toMatch(/name/i)
      await expect(t.payload.create({ collection: 'users', data: { email: `n${Math.random()}@example.test`, password: PASSWORD, name } as never, overrideAccess: false })).rejects.toMatchObject({ status: 400 })
    }
    expect((await t.payload.findByID({ collection: 'users', id: cast.reader.id })).name).toBe('reader')
    // Letters, spaces, emoji with joiners: fine.
    const ok = await reader.request(`/api/users/${cast.reader.id}`, { method: 'PATCH', json: { name: 'Zoë 👩\u200D💻 Li' } })
    expect(ok.status, await ok.text()).toBe(200)
  })

  it('a validation error names the field and the rule in its message', async () => {
    const { status, message } = await errorOf(await owner.request('/api/tags', { json: { name: 'x'.repeat(41) } }))
    expect(status).toBe(400)
    expect(message).toMatch(/^Name: .*40/)
  })

  it('concurrent saves of articles whose titles give the same slug all succeed, with distinct slugs', async () => {
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => author.request('/api/articles', { json: { title: 'Same Title!', format: 'markdown', markdown: 'x' } })),
    )
    const docs = await Promise.all(replies.map(async (r) => ({ status: r.status, slug: (await r.json()).doc?.slug })))
    expect(docs.map((d) => d.status)).toEqual(Array(6).fill(201))
    expect(new Set(docs.map((d) => d.slug)).size).toBe(6)
    expect(docs.map((d) => d.slug)).toContain('same-title')
  })
})
