/** Issue 9, item 2: one upload size limit for media and avatars, and a per-user upload rate. */
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'
import { Browser } from './accounts-client'

let t: TestPayload

beforeAll(async () => {
  t = await createTestPayload({ UPLOAD_MAX_BYTES: String(100 * 1024), UPLOAD_RATE_LIMIT: '3' })
  await createCast(t.payload)
})
afterAll(() => t?.destroy())

async function signedIn(email: string): Promise<Browser> {
  const browser = new Browser(t.payload, t.databaseName)
  const { token } = await t.payload.login({ collection: 'users', data: { email, password: PASSWORD } })
  browser.cookies.set('payload-token', token!)
  return browser
}

/** A PNG of about `kilobytes` (random pixels do not compress). */
async function png(kilobytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt((kilobytes * 1024) / 3))
  return sharp(Buffer.from(Array.from({ length: side * side * 3 }, () => Math.floor(Math.random() * 256))), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer()
}

function mediaForm(bytes: Buffer): FormData {
  const form = new FormData()
  form.set('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'picture.png')
  form.set('_payload', JSON.stringify({ alt: 'picture' }))
  return form
}

describe('uploads', () => {
  it('refuse a media file over UPLOAD_MAX_BYTES with 413 naming the setting', async () => {
    const author = await signedIn('author@example.test')
    const reply = await author.request('/api/media', { method: 'POST', body: mediaForm(await png(150)) })
    expect(reply.status).toBe(413)
    expect((await reply.json()).errors[0].message).toBe('The file is larger than 0.1 MB (UPLOAD_MAX_BYTES).')
    // In the uploader's language (issue 31).
    const chinese = await author.request('/api/media', { method: 'POST', body: mediaForm(await png(150)), headers: { 'accept-language': 'zh-CN' } })
    expect(chinese.status).toBe(413)
    expect((await chinese.json()).errors[0].message).toBe('文件超过 0.1 MB（UPLOAD_MAX_BYTES）。')
  })

  it('refuse an avatar over the same limit', async () => {
    const reader = await signedIn('reader@example.test')
    const form = new FormData()
    form.set('type', 'avatar')
    form.set('file', new Blob([new Uint8Array(await png(150))], { type: 'image/png' }), 'me.png')
    expect((await reader.request('/api/accounts/avatar', { method: 'POST', body: form })).status).toBe(413)
  })

  it('are limited per user per hour (UPLOAD_RATE_LIMIT), media and avatars counted together', async () => {
    const author = await signedIn('author2@example.test')
    const small = await png(2)
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) statuses.push((await author.request('/api/media', { method: 'POST', body: mediaForm(small) })).status)
    expect(statuses).toEqual([201, 201, 201])
    const refused = await author.request('/api/media', { method: 'POST', body: mediaForm(small) })
    expect(refused.status).toBe(429)
    expect((await refused.json()).errors[0].message).toMatch(/uploading too fast/)
    // Another user is not affected.
    const other = await signedIn('author@example.test')
    expect((await other.request('/api/media', { method: 'POST', body: mediaForm(small) })).status).toBe(201)
  })
})

describe('what an upload is stored as (issue 27 item 7)', () => {
  it('a PNG/HTML polyglot sent as .html is stored as the PNG it is: .png, image/png', async () => {
    const owner = await signedIn('owner@example.test')
    const polyglot = Buffer.concat([await png(1), Buffer.from('<html><body><script>alert(document.domain)</script></body></html>')])
    const form = new FormData()
    form.set('file', new Blob([new Uint8Array(polyglot)], { type: 'text/html' }), 'page.html')
    form.set('_payload', JSON.stringify({ alt: 'polyglot' }))
    const reply = await owner.request('/api/media', { method: 'POST', body: form })
    expect(reply.status, await reply.text()).toBe(201)
    const { doc } = await reply.json()
    expect(doc.filename).toMatch(/^page(-\d+)?\.png$/)
    expect(doc.mimeType).toBe('image/png')
    expect(JSON.stringify(doc)).not.toMatch(/\.html/)
    // Through the Local API too, and a nameless base gets a plain one.
    const local = await t.payload.create({ collection: 'media', data: { alt: 'x' }, file: { data: polyglot, mimetype: 'text/html', name: '!!!.html', size: polyglot.length } })
    expect(local.filename).toMatch(/^image(-\d+)?\.png$/)
  })

  it('a file taken from a blocked address answers 400 naming url, not 500 (create with url, and paste-url)', async () => {
    const owner = await signedIn('owner@example.test')
    const create = await owner.request('/api/media', { json: { alt: 'remote', url: 'http://127.0.0.1:9/secret.png', filename: 'secret.png' } })
    expect(create.status, await create.text()).toBe(400)
    const body = await create.json()
    expect(body.errors[0].data.errors[0]).toEqual({ path: 'url', message: expect.stringMatching(/^url: this address is not allowed/) })
    const paste = await owner.request('/api/media/paste-url?src=' + encodeURIComponent('http://169.254.169.254/latest/meta-data'))
    expect(paste.status, await paste.text()).toBe(400)
  })
})
