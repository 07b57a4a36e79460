/**
 * POST /api/articles/<id>/card: the share image drawn with sharp, in the type
 * Accept asks for, validated, cached by ETag, readable only by who may read
 * the article; GET for crawlers (og:image); 406 for a client that wants JSON.
 */
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

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


describe('the share image', () => {
  it('answers PNG, JPEG and WebP at the asked width (1.91:1), with the matching Content-Type', async () => {
    for (const [accept, format] of [['image/png', 'png'], ['image/jpeg', 'jpeg'], ['image/webp', 'webp']] as const) {
      const response = await rawCard(published, accept)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(accept)
      const meta = await sharp(response.bytes).metadata()
      expect(meta).toMatchObject({ format, width: 600, height: 315 })
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
