/**
 * Issue 32 §1: uploads and share cards in an S3-compatible bucket (a real S3
 * server on loopback). Two instances on one database, each with a DATA_DIR of
 * its own, stand for two web machines: what one uploads or draws, the other
 * serves.
 */
import { existsSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'

import { handleEndpoints, type Payload } from 'payload'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { registeredCommands, type CommandIO } from '../../jobs/commands'
import { closePayload } from '../../src/lib/boot'
import { mediaStoreOf } from '../../src/plugins/storage'
import { writeArticle } from '../helpers/articles'
import { createTestDatabase, createTestPayload, type TestPayload, type TestPayloadOptions } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { startS3Server, type S3Server } from '../helpers/s3Server'
import { createCast } from '../helpers/users'

let s3: S3Server
let webA: TestPayload
let webB: TestPayload
let cdn: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>
let cdnCast: Awaited<ReturnType<typeof createCast>>
let png: Buffer

const quiet: CommandIO = { log: () => {}, progress: () => {} }
const run = (payload: Payload, name: string, args: string[] = []) => registeredCommands(payload).commands.find((c) => c.name === name)!.run(payload, quiet, args)
const mediaDirOf = (payload: Payload) => payload.config.collections.find((c) => c.slug === 'media')!.upload.staticDir as string
/** GET /api/media/file/<name> through an instance's own HTTP handling. */
const fetchFile = (t: TestPayload, name: string) =>
  handleEndpoints({ config: t.payload.config, request: new Request(`http://localhost:3000/api/media/file/${encodeURIComponent(name)}`), payloadInstanceCacheKey: t.cacheKey })
/** GET /api/articles/<id>/card as a crawler asks for og:image, through an instance's own HTTP handling. */
async function fetchCard(t: TestPayload, articleId: number) {
  const response = await handleEndpoints({
    config: t.payload.config,
    request: new Request(`http://localhost:3000/api/articles/${articleId}/card?width=1200&theme=light`, { headers: { accept: 'image/png' } }),
    payloadInstanceCacheKey: t.cacheKey,
  })
  return { status: response.status, drawn: response.headers.get('x-card-drawn'), bytes: Buffer.from(await response.arrayBuffer()) }
}
/** Every file under an instance's DATA_DIR (the media directory's parent). */
async function dataDirFiles(t: TestPayload): Promise<string[]> {
  const dataDir = path.dirname(mediaDirOf(t.payload))
  return existsSync(dataDir) ? ((await readdir(dataDir, { recursive: true })) as string[]).sort() : []
}
const upload = (payload: Payload, name: string, owner = cast.author.id) =>
  payload.create({ collection: 'media', data: { alt: name, owner }, file: { data: png, mimetype: 'image/png', name, size: png.length } })

beforeAll(async () => {
  s3 = await startS3Server(['site-media', 'cdn-media'])
  const database = await createTestDatabase()
  const composed: TestPayloadOptions = { plugins: (compose, env) => compose(env) }
  webA = await createTestPayload(s3.env('site-media'), { ...composed, database })
  webB = await createTestPayload(s3.env('site-media'), { ...composed, database, key: `${database.name}:b` })
  cdn = await createTestPayload(s3.env('cdn-media', { S3_PUBLIC_URL: 'https://cdn.example.test/media/' }), { ...composed })
  cast = await createCast(webA.payload)
  cdnCast = await createCast(cdn.payload)
  png = await sharp({ create: { width: 900, height: 500, channels: 3, background: '#2a9d8f' } }).png().toBuffer()
}, 180_000)

afterAll(async () => {
  await closePayload(webB?.payload).catch(() => {})
  await webA?.destroy()
  await cdn?.destroy()
  await s3?.close()
})

describe('uploads in the bucket', () => {
  it('puts the file and every image size in the bucket, and nothing on the local disk', async () => {
    const doc = await upload(webA.payload, 'teal.png')
    const keys = await s3.keys('site-media')
    expect(keys).toEqual(expect.arrayContaining([doc.filename, doc.sizes!.thumbnail!.filename, doc.sizes!.square!.filename, doc.sizes!.card!.filename]))
    const local = mediaDirOf(webA.payload)
    expect(existsSync(local) ? await readdir(local) : []).toEqual([])
    // Served through Inkwell by default: the URL is the site's own.
    expect(doc.url).toBe(`http://localhost:3000/api/media/file/${doc.filename}`)
  })

  it('serves through the other web process what one of them stored, with the collection’s headers', async () => {
    const doc = await upload(webA.payload, 'shared.png')
    const response = await fetchFile(webB, doc.filename!)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true)
    expect((await fetchFile(webB, doc.sizes!.thumbnail!.filename!)).status).toBe(200)
    expect((await fetchFile(webB, 'no-such-file.png')).status).toBe(404)
  })

  it('deletes the objects with the document, through either process', async () => {
    const doc = await upload(webA.payload, 'short-lived.png')
    const names = [doc.filename!, doc.sizes!.thumbnail!.filename!, doc.sizes!.square!.filename!, doc.sizes!.card!.filename!]
    expect(await s3.keys('site-media')).toEqual(expect.arrayContaining(names))
    await webB.payload.delete({ collection: 'media', id: doc.id })
    const left = await s3.keys('site-media')
    for (const name of names) expect(left).not.toContain(name)
  })

  it('links files at S3_PUBLIC_URL when it is set', async () => {
    const doc = await upload(cdn.payload, 'public.png', cdnCast.author.id)
    expect(doc.url).toBe(`https://cdn.example.test/media/${doc.filename}`)
    expect(doc.sizes!.card!.url).toBe(`https://cdn.example.test/media/${doc.sizes!.card!.filename}`)
    expect(await s3.keys('cdn-media')).toContain(doc.filename)
  })

  it('refuses an upload the bucket refuses with a clear error, and saves no document', async () => {
    await s3.removeBucket('cdn-media')
    const before = (await cdn.payload.count({ collection: 'media' })).totalDocs
    const response = await (async () => {
      const owner = new Browser(cdn.payload, cdn.cacheKey)
      await owner.request('/api/users/login', { json: { email: 'author@example.test', password: 'correct horse battery staple' } })
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'refused.png')
      form.append('_payload', JSON.stringify({ alt: 'refused' }))
      return owner.request('/api/media', { method: 'POST', body: form })
    })()
    expect(response.status).toBe(503)
    const body = await response.json()
    expect(body.errors[0].message).toMatch(/could not be stored: the file store refused it/)
    expect((await cdn.payload.count({ collection: 'media' })).totalDocs).toBe(before)
    // The Local API says the same.
    await expect(upload(cdn.payload, 'refused-too.png', cdnCast.author.id)).rejects.toMatchObject({ status: 503 })
    expect((await cdn.payload.count({ collection: 'media' })).totalDocs).toBe(before)
  })
})

describe('share cards in the bucket', () => {
  it('keeps a card drawn by one web process in the bucket, serves it from the other without drawing, and writes nothing to either disk', async () => {
    const article = (await writeArticle(webA.payload, cast.author, 'A card for every machine')).id
    const before = [await dataDirFiles(webA), await dataDirFiles(webB)]

    const drawn = await fetchCard(webA, article)
    expect(drawn).toMatchObject({ status: 200, drawn: 'now' })
    expect((await sharp(drawn.bytes).metadata()).format).toBe('png')
    const cardKeys = async () => (await s3.keys('site-media')).filter((key) => key.startsWith(`cards/${article}/`))
    const [key] = await cardKeys()
    expect(await cardKeys()).toEqual([expect.stringMatching(new RegExp(`^cards/${article}/[0-9a-f]{16}-1200-light\\.png$`))])

    const served = await fetchCard(webB, article)
    expect(served).toMatchObject({ status: 200, drawn: 'kept' })
    expect(served.bytes.equals(drawn.bytes)).toBe(true)
    expect([await dataDirFiles(webA), await dataDirFiles(webB)]).toEqual(before)
    // The cards share the bucket but are not uploads: media:migrate and backups do not see them.
    expect((await mediaStoreOf(webA.payload)!.list()).some((k) => k.startsWith('cards/'))).toBe(false)

    // A new version of the article: drawn anew (here by B), the old version's object removed.
    await webA.payload.update({ collection: 'articles', id: article, data: { title: 'A card for every machine, renamed' } })
    const redrawn = await fetchCard(webB, article)
    expect(redrawn).toMatchObject({ status: 200, drawn: 'now' })
    expect(redrawn.bytes.equals(drawn.bytes)).toBe(false)
    const now = await cardKeys()
    expect(now).toHaveLength(1)
    expect(now[0]).not.toBe(key)
    expect(await fetchCard(webA, article)).toMatchObject({ status: 200, drawn: 'kept' })
    expect([await dataDirFiles(webA), await dataDirFiles(webB)]).toEqual(before)
  })
})

describe('media:migrate', () => {
  it('copies the local files into the bucket, then finds them there on a second run', async () => {
    const local = mediaDirOf(webA.payload)
    await mkdir(path.join(local, 'old'), { recursive: true })
    await writeFile(path.join(local, 'from-disk.png'), png)
    await writeFile(path.join(local, 'old', 'nested.png'), png)
    expect(await run(webA.payload, 'media:migrate')).toMatch(/^media:migrate: 2 copied, 0 already in s3:\/\/site-media/)
    expect(await s3.keys('site-media')).toEqual(expect.arrayContaining(['from-disk.png', 'old/nested.png']))
    expect(await run(webA.payload, 'media:migrate')).toMatch(/^media:migrate: 0 copied, 2 already in s3:\/\/site-media/)
  })
})

describe('backup and restore with a bucket', () => {
  it('backs up the bucket’s files', async () => {
    const dir = path.join(mediaDirOf(webA.payload), '..', 'backup')
    await run(webA.payload, 'backup', [dir])
    const media = await readdir(path.join(dir, 'media'), { recursive: true })
    expect(media).toEqual(expect.arrayContaining(['teal.png', 'shared.png', 'from-disk.png']))
  })
})
