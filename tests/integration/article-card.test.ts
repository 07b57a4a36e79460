/**
 * POST /api/articles/<id>/card: the share image drawn with sharp, in the type
 * Accept asks for, validated, cached by ETag, readable only by who may read
 * the article; GET for crawlers (og:image); 406 for a client that wants JSON.
 */
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'

import { invalidateLocally } from '../../src/lib/cacheBus'
import { getEnv } from '../../src/lib/env'
import { diskStore } from '../../src/lib/fileStore'
import { limitByKey, RATE_LIMITS } from '../../src/lib/rateLimit'
import { answerKeptCard } from '../../src/plugins/content/keptCards'
import { CARD_WIDTHS, storedCardFiles } from '../../src/plugins/content/shareCard'
import { cli, json } from '../helpers/cliClient'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'

let t: TestPayload
let published: number
let draft: number
let authorJwt: string

const send = (path: string, init: Parameters<typeof cli>[3] = {}) => cli(t.payload, t.databaseName, path, init)
const card = (id: number, accept: string, body: unknown = { width: 600, theme: 'dark' }, headers: Record<string, string> = {}) =>
  send(`/api/articles/${id}/card`, { headers: { ...json(body).headers, accept, ...headers }, body: JSON.stringify(body) })

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  const cast = await createCast(t.payload)
  const category = await t.payload.create({ collection: 'categories', data: { name: '随笔' } as never })
  published = (
    await t.payload.create({
      collection: 'articles',
      data: { title: '你好，世界：一篇关于排版的文章', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id, category: category.id },
    })
  ).id
  draft = (await t.payload.create({ collection: 'articles', data: { title: 'Secret draft', format: 'markdown', markdown: 'x', status: 'draft', author: cast.author.id } })).id
  authorJwt = (await t.payload.login({ collection: 'users', data: { email: 'author@example.test', password: PASSWORD } })).token!
})
afterAll(() => t?.destroy())

async function authorId(): Promise<number> {
  const { docs } = await t.payload.find({ collection: 'users', where: { email: { equals: 'author@example.test' } }, limit: 1, depth: 0 })
  return docs[0]!.id as number
}


describe('the share image', () => {
  it('answers PNG, JPEG and WebP at the asked width (1.91:1), with the matching Content-Type', async () => {
    for (const [accept, format] of [['image/png', 'png'], ['image/jpeg', 'jpeg'], ['image/webp', 'webp']] as const) {
      const response = await rawCard(published, accept)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(accept)
      const meta = await sharp(response.bytes).metadata()
      // 600 is asked: the nearest fixed width (a tie: the larger) is drawn.
      expect(meta).toMatchObject({ format, width: 800, height: 420 })
      expect(response.headers.get('x-card-width')).toBe('800')
    }
  })

  it('is cached: public for a published article, with an ETag that answers 304', async () => {
    const first = await rawCard(published, 'image/png')
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+/)
    expect(first.headers.get('vary')).toBe('Accept')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]+"$/)
    const again = await rawCard(published, 'image/png', { width: 600, theme: 'dark' }, { 'if-none-match': etag })
    expect(again.status).toBe(304)
    const other = await rawCard(published, 'image/png', { width: 600, theme: 'light' })
    expect(other.headers.get('etag')).not.toBe(etag)
  })

  it('answers 406 with a clear message to Accept: application/json', async () => {
    const reply = await card(published, 'application/json')
    expect(reply.status).toBe(406)
    expect(reply.body.errors[0].message).toMatch(/answers an image.*image\/png, image\/jpeg, image\/webp/)
  })

  it('answers 400 naming the field for a bad width or theme', async () => {
    for (const [body, field, pattern] of [
      [{ width: 'huge' }, 'width', /whole number of pixels from 200 to 2400/],
      [{ width: 10_000 }, 'width', /from 200 to 2400/],
      [{ width: 640.5 }, 'width', /whole number/],
      [{ theme: 'neon' }, 'theme', /"light", "dark"/],
    ] as const) {
      const reply = await card(published, 'image/png', body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(reply.body.errors[0]).toMatchObject({ data: { errors: [{ path: field }] } })
      expect(reply.body.errors[0].message).toMatch(pattern)
    }
  })

  it('is served to crawlers by GET with the options in the query', async () => {
    const response = await send(`/api/articles/${published}/card?width=1200&theme=light&v=1`, { headers: { accept: '*/*' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
  })

  it("keeps a draft's card to those who may read the draft", async () => {
    expect((await card(draft, 'image/png')).status).toBe(404)
    const own = await rawCard(draft, 'image/png', { width: 400, theme: 'light' }, { authorization: `JWT ${authorJwt}` })
    expect(own.status).toBe(200)
    expect(own.headers.get('cache-control')).toBe('private, no-cache')
    expect((await card(999_999, 'image/png')).status).toBe(404)
  })

  it('answers any width from 200 to 2400 at the nearest of a few fixed widths', async () => {
    expect(CARD_WIDTHS).toEqual([400, 800, 1200])
    for (const [asked, drawn] of [[200, 400], [599, 400], [601, 800], [1000, 1200], [2400, 1200]] as const) {
      const response = await rawCard(published, 'image/webp', { width: asked, theme: 'light' })
      expect(response.status, String(asked)).toBe(200)
      expect(response.headers.get('x-card-width')).toBe(String(drawn))
      expect((await sharp(response.bytes).metadata()).width).toBe(drawn)
    }
  })

  it('draws each card once per version of the article, keeps it on disk, and drops the old version when the article changes', async () => {
    const article = (
      await t.payload.create({ collection: 'articles', data: { title: 'Kept cards', format: 'markdown', markdown: 'x', status: 'published', author: (await authorId()) } as never })
    ).id
    // Without a bucket the cards are kept on this machine's disk, under DATA_DIR/cards.
    const dir = diskStore(path.join(getEnv().dataDir, 'cards'))
    const first = await rawCard(article, 'image/png', { width: 1200, theme: 'dark' })
    expect(first.headers.get('x-card-drawn')).toBe('now')
    const files = await storedCardFiles(dir, article)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^[0-9a-f]{16}-1200-dark\.png$/)
    for (const width of [1100, 1300, 1200]) {
      const again = await rawCard(article, 'image/png', { width, theme: 'dark' })
      expect(again.headers.get('x-card-drawn')).toBe('kept')
      expect(again.bytes.equals(first.bytes)).toBe(true)
    }
    await rawCard(article, 'image/jpeg', { width: 400, theme: 'light' })
    expect(await storedCardFiles(dir, article)).toHaveLength(2)

    await t.payload.update({ collection: 'articles', id: article, data: { title: 'Kept cards, renamed' } })
    const changed = await rawCard(article, 'image/png', { width: 1200, theme: 'dark' })
    expect(changed.headers.get('x-card-drawn')).toBe('now')
    expect(changed.bytes.equals(first.bytes)).toBe(false)
    const now = await storedCardFiles(dir, article)
    expect(now).toHaveLength(1) // the old version's two files are gone
    expect(now[0]).not.toBe(files[0])
  })

  it("keeps what an anonymous reader's card shows (no reads per request), and shows a new title, author, site name or unpublishing at once", async () => {
    const author = await authorId()
    const article = (
      await t.payload.create({ collection: 'articles', data: { title: 'Remembered card', format: 'markdown', markdown: 'x', status: 'published', author } as never })
    ).id
    // A fresh address: this test draws a few versions, the rate limit test below exhausts its own.
    const from = { 'x-forwarded-for': '198.51.100.77' }
    const etagOf = async (ifNoneMatch?: string) => {
      const answer = await rawCard(article, 'image/png', { width: 400, theme: 'light' }, { ...from, ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) })
      return { status: answer.status, etag: answer.headers.get('etag')! }
    }
    let articleReads = 0
    const countRead = () => {
      articleReads++
    }
    const hooks = t.payload.collections.articles.config.hooks
    hooks.afterRead = [...(hooks.afterRead ?? []), countRead]
    try {
      const first = await etagOf()
      expect(first.status).toBe(200)
      articleReads = 0
      for (let i = 0; i < 5; i++) expect((await etagOf(first.etag)).status).toBe(304)
      expect(articleReads).toBe(0)

      // Each change of what the card shows: the next answer is the new card (a new ETag), read once.
      let last = first.etag
      const changes: [string, () => Promise<unknown>][] = [
        ['title', () => t.payload.update({ collection: 'articles', id: article, data: { title: 'Remembered card, renamed' } })],
        ["author's name", () => t.payload.update({ collection: 'users', id: author, data: { name: 'Renamed Author' } as never })],
        ['site name', () => t.payload.updateGlobal({ slug: 'site-settings', data: { siteName: 'Renamed Site' } as never })],
      ]
      for (const [what, change] of changes) {
        await change()
        const after = await etagOf(last)
        expect(after.status, what).toBe(200)
        expect(after.etag, what).not.toBe(last)
        last = after.etag
      }
      await t.payload.update({ collection: 'articles', id: article, data: { status: 'draft' } })
      expect((await etagOf(last)).status).toBe(404)
    } finally {
      hooks.afterRead = hooks.afterRead!.filter((hook) => hook !== countRead)
      await t.payload.updateGlobal({ slug: 'site-settings', data: { siteName: 'Inkwell' } as never })
    }
  })

  it('limits drawing per address (429 with Retry-After), never serving what is already kept', async () => {
    const address = '203.0.113.77'
    const forwarded = { 'x-forwarded-for': address }
    const kept = await rawCard(published, 'image/png', { width: 1200, theme: 'dark' })
    expect(kept.status).toBe(200)
    // The address has used up its drawings.
    const req = { payload: t.payload } as never
    for (let i = 0; i < RATE_LIMITS.cardDraw.points; i++) await limitByKey(req, 'cardDraw', address)
    const refused = await rawCard(published, 'image/webp', { width: 400, theme: 'dark' }, forwarded)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.bytes.toString()).toMatch(/Too many new share images.*400, 800, 1200/)
    const stillKept = await rawCard(published, 'image/png', { width: 1200, theme: 'dark' }, forwarded)
    expect(stillKept.status).toBe(200)
    expect(stillKept.headers.get('x-card-drawn')).toBe('kept')
    // Another address draws.
    expect((await rawCard(published, 'image/webp', { width: 400, theme: 'dark' }, { 'x-forwarded-for': '203.0.113.78' })).status).toBe(200)
  })

  it('keeps what it answered an anonymous reader of a published article for the one-origin server, never a draft or a signed-in answer, and drops it on a change', async () => {
    invalidateLocally(['*'])
    // The one-origin server's use of it (src/server/index.ts): the kept answer, else the endpoint's turn.
    const server = http.createServer((req, res) => {
      if (!answerKeptCard(req, res, {})) res.writeHead(404, { 'x-answered-by': 'endpoint' }).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const kept = (id: number, query: string) =>
      fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/articles/${id}/card?${query}`, { headers: { accept: 'image/png' } })
    try {
      const from = { 'x-forwarded-for': '198.51.100.79' }
      const anonymous = await rawCard(published, 'image/png', { width: 400, theme: 'dark' }, from)
      expect(anonymous.status).toBe(200)
      const answer = await kept(published, 'width=450&theme=dark')
      expect(answer.status).toBe(200)
      expect(answer.headers.get('etag')).toBe(anonymous.headers.get('etag'))
      expect(answer.headers.get('cache-control')).toBe(anonymous.headers.get('cache-control'))
      expect(Buffer.from(await answer.arrayBuffer()).equals(anonymous.bytes)).toBe(true)

      // The author's own answers (a draft's card, and a published one read signed in) are not kept for others.
      const signedIn = { ...from, authorization: `JWT ${authorJwt}` }
      expect((await rawCard(draft, 'image/png', { width: 800, theme: 'dark' }, signedIn)).status).toBe(200)
      expect((await rawCard(published, 'image/png', { width: 1200, theme: 'light' }, signedIn)).status).toBe(200)
      expect((await kept(draft, 'width=800&theme=dark')).headers.get('x-answered-by')).toBe('endpoint')
      expect((await kept(published, 'width=1200&theme=light')).headers.get('x-answered-by')).toBe('endpoint')

      // A new title: the kept answer is gone in this process when the update announces it.
      await t.payload.update({ collection: 'articles', id: published, data: { title: '你好，世界：改过的标题' } })
      expect((await kept(published, 'width=400&theme=dark')).headers.get('x-answered-by')).toBe('endpoint')
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  it('draws CJK text with real glyphs (a CJK font is installed and found), not empty boxes', async () => {
    const draw = (text: string) => sharp({ text: { text, font: 'sans-serif 40', rgba: true } }).raw().toBuffer()
    const [ni, hao] = await Promise.all([draw('你'), draw('好')])
    expect(ni.equals(hao)).toBe(false)
  })
})

/** The card as bytes (the JSON client helper reads text). */
async function rawCard(id: number, accept: string, body: unknown = { width: 600, theme: 'dark' }, headers: Record<string, string> = {}) {
  const { handleEndpoints } = await import('payload')
  const { normalizeRequestBody } = await import('../../src/lib/requestBody')
  const request = await normalizeRequestBody(
    new Request(`http://localhost:3000/api/articles/${id}/card`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept, ...headers },
      body: JSON.stringify(body),
    }),
  )
  const response = await handleEndpoints({ config: t.payload.config, request: request as Request, payloadInstanceCacheKey: t.databaseName })
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
}
