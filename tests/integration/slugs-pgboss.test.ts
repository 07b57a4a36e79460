/**
 * translate-slug with QUEUE_CONNECTION=pgboss: enqueued through the article's
 * own transaction (a rolled-back save enqueues nothing), run by pg-boss
 * workers, retried with pg-boss's backoff after a transient API error.
 */
import { createLocalReq, initTransaction, killTransaction } from 'payload'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { writeArticle } from '../helpers/articles'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { startTranslationServer, type TranslationServer } from '../helpers/translationServer'
import { createCast } from '../helpers/users'
import { waitUntil } from '../helpers/waitUntil'

let t: TestPayload
let api: TranslationServer
let db: pg.Client
let cast: Awaited<ReturnType<typeof createCast>>

beforeAll(async () => {
  api = await startTranslationServer()
  api.dictionary.set('你好世界', 'Hello World')
  api.dictionary.set('队列里的标题', 'Title in the queue')
  t = await createTestPayload({
    QUEUE_CONNECTION: 'pgboss',
    TRANSLATE_APPID: api.appId,
    TRANSLATE_KEY: api.key,
    TRANSLATE_ENDPOINT: api.url,
    TRANSLATE_TIMEOUT_MS: '2000',
    TRANSLATE_TRIES: '3',
  })
  db = new pg.Client({ connectionString: t.databaseUrl })
  db.on('error', () => {})
  await db.connect()
  cast = await createCast(t.payload)
}, 300_000)
afterAll(async () => {
  await db?.end()
  await t?.destroy()
  await api?.stop()
})

const write = (title: string, extra: Record<string, unknown> = {}) => writeArticle(t.payload, cast.author, title, extra)
const slugOf = async (id: number) => (await t.payload.findByID({ collection: 'articles', id, depth: 0 })).slug
const jobs = async (state?: string) =>
  (await db.query(`select state from pgboss.job where name = 'translate-slug'${state ? ` and state = '${state}'` : ''}`)).rows

describe('translate-slug through pg-boss', () => {
  it('the article answers at once under the transliterated slug; a worker brings the English one', async () => {
    const created = await write('你好世界')
    expect(created.slug).toBe('ni-hao-shi-jie')
    await waitUntil(async () => (await slugOf(created.id)) === 'hello-world', { what: 'the translated slug' })
    expect(api.calls.every((c) => c.validSign && c.to === 'en')).toBe(true)
  })

  it('retries a transient error with backoff, then translates', async () => {
    api.script({ code: '52002' })
    const before = api.calls.length
    const created = await write('队列里的标题')
    expect(created.slug).toBe('dui-lie-li-de-biao-ti')
    await waitUntil(async () => (await slugOf(created.id)) === 'title-in-the-queue', { what: 'the translated slug after a retry' })
    expect(api.calls.length - before).toBe(2)
  })

  it('a save that rolls back enqueues nothing', async () => {
    const count = (await jobs()).length
    const req = await createLocalReq({ user: cast.author as never }, t.payload)
    await initTransaction(req)
    await t.payload.create({ collection: 'articles', data: { title: '回滚的文章', format: 'markdown', markdown: 'x' } as never, req, overrideAccess: false, user: cast.author })
    await killTransaction(req)
    expect((await jobs()).length).toBe(count)
  })
})
