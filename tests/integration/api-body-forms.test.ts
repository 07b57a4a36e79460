/**
 * Every request form a command line sends (form body, query string, JSON,
 * multipart with `file` and text fields) reaches the write endpoints, and
 * gets the same answers; an unreadable body answers 400 naming the problem.
 */
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { cli, form, json } from '../helpers/cliClient'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>
let articleId: number
let readerJwt: string
let authorJwt: string

const send = (path: string, init: Parameters<typeof cli>[3] = {}) => cli(t.payload, t.databaseName, path, init)
const as = (jwt: string, init: { headers?: Record<string, string>; body?: BodyInit; method?: string }) => ({
  ...init,
  headers: { ...init.headers, authorization: `JWT ${jwt}` },
})

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  cast = await createCast(t.payload)
  const article = await t.payload.create({
    collection: 'articles',
    data: { title: 'Forms', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id },
  })
  articleId = article.id
  readerJwt = (await t.payload.login({ collection: 'users', data: { email: 'reader@example.test', password: PASSWORD } })).token!
  authorJwt = (await t.payload.login({ collection: 'users', data: { email: 'author@example.test', password: PASSWORD } })).token!
})
afterAll(() => t?.destroy())

describe('Payload login (/api/users/login)', () => {
  it('accepts a form body, a query string and JSON alike', async () => {
    const fields = { email: 'reader@example.test', password: PASSWORD }
    for (const init of [form(fields), json(fields), { method: 'POST' }] as { method?: string; body?: string }[]) {
      const path = init.body ? '/api/users/login' : `/api/users/login?${new URLSearchParams(fields)}`
      const reply = await send(path, init)
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(reply.body.token).toBeTruthy()
    }
  })

  it('answers a wrong password with the same 401 in every form', async () => {
    const fields = { email: 'reader@example.test', password: 'wrong password here' }
    const answers = await Promise.all([send('/api/users/login', form(fields)), send('/api/users/login', json(fields))])
    expect(answers.map((a) => a.status)).toEqual([401, 401])
    expect(answers[0]!.body).toEqual(answers[1]!.body)
  })
})

describe('replies', () => {
  it('are created from a form body (it used to answer 500), a query string, JSON and multipart text fields', async () => {
    const multipart = new FormData()
    multipart.set('article', String(articleId))
    multipart.set('body', 'from multipart')
    const forms = [
      form({ article: String(articleId), body: 'from a form' }),
      { method: 'POST', path: `?article=${articleId}&body=from%20a%20query` },
      json({ article: articleId, body: 'from JSON' }),
      { body: multipart },
    ]
    for (const { path = '', ...init } of forms as { path?: string; method?: string; headers?: Record<string, string>; body?: BodyInit }[]) {
      const reply = await send(`/api/replies${path}`, as(readerJwt, init))
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      expect(reply.body.doc.author).toMatchObject({ id: cast.reader.id })
    }
    const { docs } = await t.payload.find({ collection: 'replies', where: { article: { equals: articleId } }, sort: 'createdAt' })
    expect(docs.map((d) => d.body)).toEqual(['from a form', 'from a query', 'from JSON', 'from multipart'])
  })

  it('answer an empty reply with the same 400 and message in every form', async () => {
    const answers = await Promise.all([
      send('/api/replies', as(readerJwt, form({ article: String(articleId), body: ' ' }))),
      send('/api/replies', as(readerJwt, json({ article: articleId, body: ' ' }))),
      send(`/api/replies?article=${articleId}&body=%20`, as(readerJwt, { method: 'POST' })),
    ])
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400])
    for (const a of answers) expect(a.body.errors[0].message).toMatch(/A reply cannot be empty/)
  })
})

describe('unreadable bodies answer 400 naming the problem', () => {
  it('malformed JSON', async () => {
    const reply = await send('/api/replies', as(readerJwt, { headers: { 'content-type': 'application/json' }, body: '{"body": "x",' }))
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0].message).toMatch(/JSON body is malformed/)
  })

  it('JSON that is not an object', async () => {
    const reply = await send('/api/replies', as(readerJwt, json([1, 2])))
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0].message).toMatch(/one object/)
  })

  it('a form body with a broken percent-escape', async () => {
    const reply = await send('/api/users/login', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%zz' })
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0].message).toMatch(/form body is malformed.*character 8/)
  })

  it('multipart with no boundary, or a broken one', async () => {
    const noBoundary = await send('/api/media', as(authorJwt, { headers: { 'content-type': 'multipart/form-data' }, body: 'x' }))
    expect(noBoundary.status).toBe(400)
    expect(noBoundary.body.errors[0].message).toMatch(/names no boundary/)
    const broken = await send('/api/media', as(authorJwt, { headers: { 'content-type': 'multipart/form-data; boundary=abc' }, body: '--abc\r\nnonsense' }))
    expect(broken.status).toBe(400)
    expect(broken.body.errors[0].message).toMatch(/multipart body is malformed/)
  })
})

describe('media and avatars (multipart: file + text fields)', () => {
  const image = () => sharp({ create: { width: 40, height: 30, channels: 3, background: '#c33' } }).png().toBuffer()

  it('a media upload takes its fields from plain text parts, without `_payload`', async () => {
    const body = new FormData()
    body.set('file', new Blob([new Uint8Array(await image())], { type: 'image/png' }), 'red.png')
    body.set('alt', 'A red rectangle')
    const reply = await send('/api/media', as(authorJwt, { body }))
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.body.doc.alt).toBe('A red rectangle')
  })

  it('the avatar endpoint keeps reading `file` and `type`', async () => {
    const body = new FormData()
    body.set('file', new Blob([new Uint8Array(await image())], { type: 'image/png' }), 'me.png')
    body.set('type', 'avatar')
    const reply = await send('/api/accounts/avatar', as(readerJwt, { body }))
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  })
})

describe('notifications are marked read from a form or a query string', () => {
  it('PATCH /api/notifications/<id>', async () => {
    const notes = await t.payload.find({ collection: 'notifications', where: { recipient: { equals: cast.author.id } }, limit: 2 })
    expect(notes.docs.length).toBeGreaterThanOrEqual(2)
    const [first, second] = notes.docs
    const now = new Date().toISOString()
    const byForm = await send(`/api/notifications/${first!.id}`, as(authorJwt, { method: 'PATCH', ...form({ readAt: now }) }))
    const byQuery = await send(`/api/notifications/${second!.id}?readAt=${encodeURIComponent(now)}`, as(authorJwt, { method: 'PATCH' }))
    expect([byForm.status, byQuery.status]).toEqual([200, 200])
    expect(byForm.body.doc.readAt).toBe(now)
    expect(byQuery.body.doc.readAt).toBe(now)
  })
})
