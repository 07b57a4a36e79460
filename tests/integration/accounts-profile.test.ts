import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser, validUser } from './accounts-client'
import { apiErrorOf } from '../../frontend/src/lib/api/errors'

let t: TestPayload
let reader: Browser
const PASSWORD = validUser('x').password

const png = () => sharp({ create: { width: 600, height: 400, channels: 3, background: '#3366aa' } }).png().toBuffer()
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>')
const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>')

function avatarForm(bytes: Buffer, filename: string, type: string, fieldType = 'avatar'): FormData {
  const form = new FormData()
  form.set('type', fieldType)
  form.set('file', new Blob([new Uint8Array(bytes)], { type }), filename)
  return form
}

const upload = (b: Browser, form: FormData) => b.request('/api/accounts/avatar', { method: 'POST', body: form })

async function readerDoc() {
  const { docs } = await t.payload.find({ collection: 'users', where: { email: { equals: 'reader@example.test' } }, depth: 1, overrideAccess: true })
  return docs[0]!
}

beforeAll(async () => {
  t = await createTestPayload()
  for (const email of ['owner@example.test', 'admin@example.test', 'other@example.test']) {
    await new Browser(t.payload, t.databaseName).register(validUser(email))
  }
  reader = new Browser(t.payload, t.databaseName)
  expect((await reader.register(validUser('reader@example.test'))).status).toBe(201)
})
afterAll(() => t?.destroy())

describe('profile', () => {
  it('saves name and introduction as plain text', async () => {
    const reply = await reader.request('/api/accounts/profile', {
      json: { name: '  Grace Hopper ', introduction: 'Compilers <b>and</b> COBOL.\r\nNavy.' },
    })
    expect(reply.status).toBe(200)
    const doc = await readerDoc()
    expect(doc.name).toBe('Grace Hopper')
    expect(doc.introduction).toBe('Compilers <b>and</b> COBOL.\nNavy.')
  })

  it('names the bad field and keeps everything else unchanged', async () => {
    const reply = await reader.request('/api/accounts/profile', { json: { name: '', introduction: 'Hello' } })
    expect(reply.status).toBe(400)
    expect(Object.keys(apiErrorOf(await reply.json()).fields)).toEqual(['name'])
    // An over-long value is refused before anything else looks at it, naming the field and its limit.
    const long = await reader.request('/api/accounts/profile', { json: { name: 'Grace', introduction: 'x'.repeat(2001) } })
    expect(long.status).toBe(400)
    expect(apiErrorOf(await long.json()).fields).toEqual({ introduction: 'Use at most 2,000 characters for introduction.' })
    expect((await readerDoc()).name).toBe('Grace Hopper')
  })

  it('changes the e-mail or password only with the current password', async () => {
    const without = await reader.request('/api/accounts/profile', { json: { email: 'grace@example.test' } })
    expect(without.status).toBe(400)
    expect(apiErrorOf(await without.json()).fields.currentPassword).toMatch(/current password/)
    const wrong = await reader.request('/api/accounts/profile', {
      json: { newPassword: 'brand-new-secret', newPasswordConfirm: 'brand-new-secret', currentPassword: 'nope-nope' },
    })
    expect(apiErrorOf(await wrong.json()).fields.currentPassword).toBeDefined()
    const taken = await reader.request('/api/accounts/profile', { json: { email: 'other@example.test', currentPassword: PASSWORD } })
    expect(apiErrorOf(await taken.json()).fields.email).toMatch(/already exists/)
    expect((await readerDoc()).email).toBe('reader@example.test')

    const right = await reader.request('/api/accounts/profile', {
      json: { newPassword: 'brand-new-secret', newPasswordConfirm: 'brand-new-secret', currentPassword: PASSWORD },
    })
    expect(right.status).toBe(200)
    expect((await new Browser(t.payload, t.databaseName).login('reader@example.test', 'brand-new-secret')).status).toBe(200)
    expect((await new Browser(t.payload, t.databaseName).login('reader@example.test', PASSWORD)).status).toBe(401)
  })

  it('needs a session', async () => {
    const reply = await new Browser(t.payload, t.databaseName).request('/api/accounts/profile', { json: { name: 'Anon' } })
    expect(reply.status).toBe(401)
  })
})

describe('avatar', () => {
  it('accepts a PNG renamed .gif, stores it as PNG, makes square sizes and serves it with nosniff', async () => {
    const reply = await upload(reader, avatarForm(await png(), 'me.gif', 'image/gif'))
    expect(reply.status).toBe(201)
    const { avatar } = await reply.json()
    expect(avatar.mimeType).toBe('image/png')
    expect(avatar.url).toMatch(/\.png$/)
    const media = await t.payload.findByID({ collection: 'media', id: avatar.id, overrideAccess: true })
    expect(media.sizes?.thumbnail).toMatchObject({ width: 96, height: 96 })
    expect(media.sizes?.square).toMatchObject({ width: 320, height: 320 })
    expect((await readerDoc()).avatar).toMatchObject({ id: avatar.id })

    const served = await reader.request(new URL(avatar.url, 'http://localhost:3000').pathname)
    expect(served.status).toBe(200)
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(served.headers.get('content-type')).toBe('image/png')
  })

  it('refuses an HTML page renamed .png', async () => {
    const before = await readerDoc()
    const reply = await upload(reader, avatarForm(html, 'cat.png', 'image/png'))
    expect(reply.status).toBe(415)
    expect(apiErrorOf(await reply.json()).fields.file).toMatch(/JPEG, PNG, WebP or GIF/)
    expect((await readerDoc()).avatar).toEqual(before.avatar)
  })

  it('refuses SVG', async () => {
    const reply = await upload(reader, avatarForm(svg, 'logo.svg', 'image/svg+xml'))
    expect(reply.status).toBe(415)
  })

  it('refuses a file over the one upload limit (UPLOAD_MAX_BYTES, 10 MB by default) with 413', async () => {
    const big = Buffer.concat([await png(), Buffer.alloc(10 * 1024 * 1024 + 1, 7)])
    const reply = await upload(reader, avatarForm(big, 'big.png', 'image/png'))
    expect(reply.status).toBe(413)
    expect(apiErrorOf(await reply.json()).fields.file).toMatch(/larger than 10 MB/)
  })

  it('wants the field type=avatar and a signed-in user', async () => {
    const wrongType = await upload(reader, avatarForm(await png(), 'me.png', 'image/png', 'banner'))
    expect(wrongType.status).toBe(400)
    expect(apiErrorOf(await wrongType.json()).fields.type).toBeDefined()
    const anonymous = await upload(new Browser(t.payload, t.databaseName), avatarForm(await png(), 'me.png', 'image/png'))
    expect(anonymous.status).toBe(401)
  })
})
