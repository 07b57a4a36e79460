/**
 * Slugs through the queue with the translation API (QUEUE_CONNECTION=sync,
 * credentials set): an article is readable at once under its transliterated
 * slug, then `translate-slug` replaces it with the slug of the English title;
 * failures retry with backoff and then leave the transliteration. The API is a
 * loopback server speaking Baidu's contract (tests/helpers/translationServer.ts).
 * On a published article with a pending draft (src/plugins/drafts), the
 * job's write changes the published article and keeps the draft.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { queueOf, syncJobsIdle } from '../../jobs/queue'
import { baiduSign } from '../../src/plugins/slugs/translateToEnglish'
import { writeArticle } from '../helpers/articles'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { startTranslationServer, type TranslationServer } from '../helpers/translationServer'
import { createCast, PASSWORD } from '../helpers/users'

let t: TestPayload
let api: TranslationServer
let cast: Awaited<ReturnType<typeof createCast>>
let retries: { name: string; attempt: number }[] = []

beforeAll(async () => {
  api = await startTranslationServer()
  t = await createTestPayload({
    QUEUE_CONNECTION: 'sync',
    SYNC_RETRY_SCALE: '0.01',
    TRANSLATE_APPID: api.appId,
    TRANSLATE_KEY: api.key,
    TRANSLATE_ENDPOINT: api.url,
    TRANSLATE_TIMEOUT_MS: '300',
    TRANSLATE_TRIES: '3',
  })
  cast = await createCast(t.payload)
  queueOf(t.payload).events.on('retry', (event: { name: string; attempt: number }) => retries.push(event))
  api.dictionary.set('你好世界', 'Hello World')
  api.dictionary.set('重庆的银行', "Chongqing's Bank")
  api.dictionary.set('今天天气很好', 'The weather is nice today')
  api.dictionary.set('标点', '!!!')
})
afterAll(async () => {
  await syncJobsIdle()
  await t?.destroy()
  await api?.stop()
})
beforeEach(() => {
  api.calls.length = 0
  retries = []
})

const write = (title: string, extra: Record<string, unknown> = {}) => writeArticle(t.payload, cast.author, title, extra)
const read = (id: number) => t.payload.findByID({ collection: 'articles', id, depth: 0, overrideAccess: true })

describe('the translate-slug job', () => {
  it('answers at once with the transliterated slug, then the English slug, keeping the old one as former', async () => {
    const release = api.hold()
    const created = await write('你好世界')
    expect(created.slug).toBe('ni-hao-shi-jie')
    // Readable at once, over REST as the public, under the transliterated slug.
    const rest = new Browser(t.payload, t.databaseName)
    const early = await (await rest.request('/api/articles?where[slug][equals]=ni-hao-shi-jie&depth=0')).json()
    expect(early.docs.map((d: { id: number }) => d.id)).toEqual([created.id])

    release()
    await syncJobsIdle()
    const article = await read(created.id)
    expect(article.slug).toBe('hello-world')
    expect(article.slugOrigin).toBe('translated')
    expect(article.formerSlugs?.map((r) => r.slug)).toEqual(['ni-hao-shi-jie'])
    // Held past the client's time limit, the first calls were retried: every one follows the contract.
    expect(api.calls.length).toBeGreaterThanOrEqual(1)
    for (const call of api.calls) expect(call).toMatchObject({ q: '你好世界', from: 'auto', to: 'en', appid: api.appId, validSign: true })
    const late = await (await rest.request('/api/articles?where[slug][equals]=hello-world&depth=0')).json()
    expect(late.docs.map((d: { id: number }) => d.id)).toEqual([created.id])
  })

  it('signs as the API documents: MD5 of appid + q + salt + key over the raw text', () => {
    // The API's own documented example.
    expect(baiduSign('2015063000000001', 'apple', '1435660288', '12345678')).toBe('f89f9594663708c1605f3d736d01d2d4')
  })

  it('keeps translated slugs unique (a suffix, as for any slug)', async () => {
    const first = await write('你好世界', { slug: 'hello-world-original' })
    await write('Hello World') // takes "hello-world" if free, else a suffix
    const second = await write('你好世界')
    await syncJobsIdle()
    const slugs = (await t.payload.find({ collection: 'articles', where: { slug: { like: 'hello-world' } }, limit: 50, depth: 0 })).docs.map((d) => d.slug)
    expect(new Set(slugs).size).toBe(slugs.length)
    expect((await read(second.id)).slug).toMatch(/^hello-world-\d+$/)
    expect((await read(first.id)).slug).toBe('hello-world-original')
  })

  it.each([
    ['request timed out (52001)', { code: '52001' }],
    ['system error (52002)', { code: '52002' }],
    ['frequency limit (54003)', { code: '54003' }],
    ['balance exhausted (54004)', { code: '54004' }],
    ['no answer in time', 'timeout' as const],
    ['an answer that is not JSON', 'garbage' as const],
    ['an answer without a translation', 'empty' as const],
  ])('retries after %s, then uses the translation', async (_label, failure) => {
    api.script(failure, failure)
    const created = await write('重庆的银行')
    expect(created.slug).toMatch(/^chong-qing-de-yin-hang(-\d+)?$/)
    await syncJobsIdle()
    expect((await read(created.id)).slug).toMatch(/^chongqing-s-bank(-\d+)?$/)
    expect(api.calls).toHaveLength(3)
    expect(retries.map((r) => r.attempt)).toEqual([1, 2])
  })

  it('gives up after the last try and keeps the transliterated slug', async () => {
    api.script({ code: '52002' }, 'timeout', 'garbage')
    const created = await write('今天天气很好')
    await syncJobsIdle()
    const article = await read(created.id)
    expect(article.slug).toMatch(/^jin-tian-tian-qi-hen-hao(-\d+)?$/)
    expect(article.slugOrigin).toBe('automatic')
    expect(api.calls).toHaveLength(3)
  })

  it('treats a translation that makes no slug as garbage', async () => {
    const created = await write('标点')
    await syncJobsIdle()
    expect((await read(created.id)).slug).toBe('biao-dian')
    expect(api.calls).toHaveLength(3)
  })

  it('does not retry a wrong signature (54001, the key does not match): the transliteration stays', async () => {
    api.setKey('a-key-the-site-does-not-have')
    try {
      const created = await write('今天天气很好')
      await syncJobsIdle()
      expect((await read(created.id)).slug).toMatch(/^jin-tian-tian-qi-hen-hao(-\d+)?$/)
    } finally {
      api.setKey(api.key)
    }
    expect(api.calls).toHaveLength(1)
    expect(api.calls[0]!.validSign).toBe(false)
    expect(retries).toEqual([])
  })

  it.each([
    ['an unauthorized appid (52003)', { code: '52003' }],
    ['a refused client address (58000)', { code: '58000' }],
  ])('does not retry %s: the transliteration stays', async (_label, failure) => {
    api.script(failure)
    const created = await write('今天天气很好')
    await syncJobsIdle()
    expect((await read(created.id)).slug).toMatch(/^jin-tian-tian-qi-hen-hao(-\d+)?$/)
    expect(api.calls).toHaveLength(1)
    expect(retries).toEqual([])
  })

  it('never overwrites a slug the editor typed, and sends nothing for it', async () => {
    const created = await write('你好世界', { slug: 'my-own-slug' })
    await syncJobsIdle()
    expect(api.calls).toHaveLength(0)
    const article = await read(created.id)
    expect(article).toMatchObject({ slug: 'my-own-slug', slugOrigin: 'editor' })
    // Nor does a later title change move it.
    await t.payload.update({ collection: 'articles', id: created.id, data: { title: '今天天气很好' }, overrideAccess: false, user: cast.author })
    await syncJobsIdle()
    expect((await read(created.id)).slug).toBe('my-own-slug')
  })

  it('an editor who sets the slug while the job waits wins', async () => {
    api.script('timeout')
    const created = await write('你好世界')
    // The job is waiting on its first (timed-out) call; the editor sets the slug meanwhile.
    await t.payload.update({ collection: 'articles', id: created.id, data: { slug: 'editors-choice' }, overrideAccess: false, user: cast.author })
    await syncJobsIdle()
    expect(await read(created.id)).toMatchObject({ slug: 'editors-choice', slugOrigin: 'editor' })
  })

  it('an automatic slug follows a new title, and the newest title wins', async () => {
    const created = await write('你好世界')
    await syncJobsIdle()
    // Held, so the transliterated slug is read before the job's translation lands (the job runs in-process
    // and, on a quick machine, could finish before the read otherwise).
    const release = api.hold()
    await t.payload.update({ collection: 'articles', id: created.id, data: { title: '今天天气很好' }, overrideAccess: false, user: cast.author })
    expect((await read(created.id)).slug).toMatch(/^jin-tian-tian-qi-hen-hao(-\d+)?$/)
    release()
    await syncJobsIdle()
    const article = await read(created.id)
    expect(article.slug).toBe('the-weather-is-nice-today')
    // Earlier tests hold the plain slugs, so these may carry suffixes.
    const former = article.formerSlugs?.map((r) => r.slug) ?? []
    expect(former).toHaveLength(3)
    expect(former[0]).toMatch(/^ni-hao-shi-jie(-\d+)?$/)
    expect(former[1]).toMatch(/^hello-world(-\d+)?$/)
    expect(former[2]).toMatch(/^jin-tian-tian-qi-hen-hao(-\d+)?$/)
  })

  it('over REST as an author: the slug origin and former slugs cannot be written by a client', async () => {
    const browser = new Browser(t.payload, t.databaseName)
    expect((await browser.request('/api/users/login', { json: { email: 'author@example.test', password: PASSWORD } })).status).toBe(200)
    const created = await browser.request('/api/articles', {
      json: { title: '你好世界', format: 'markdown', markdown: 'x', slugOrigin: 'editor', formerSlugs: [{ slug: 'planted' }] },
    })
    expect(created.status).toBe(201)
    const { doc } = await created.json()
    expect(doc.slugOrigin).toBe('automatic')
    expect(doc.formerSlugs).toEqual([])
    await syncJobsIdle()
    expect((await read(doc.id)).slugOrigin).toBe('translated')
  })
})

describe('the translate-slug job on a published article with a pending draft', () => {
  const latest = (id: number) => t.payload.findByID({ collection: 'articles', id, draft: true, depth: 0, overrideAccess: true })

  it('writes the slug of the published version, and the draft keeps its words, unpublished, with the same slug', async () => {
    api.dictionary.set('草稿里的文章', 'An article in draft')
    const release = api.hold()
    const created = await write('草稿里的文章', { markdown: 'Words readers see.' })
    expect(created.slug).toMatch(/^cao-gao-li-de-wen-zhang(-\d+)?$/)
    // The author starts a change while the translation is on its way.
    await t.payload.update({ collection: 'articles', id: created.id, data: { markdown: 'Words of the pending draft.' }, draft: true, overrideAccess: false, user: cast.author })
    release()
    await syncJobsIdle()

    const published = await read(created.id)
    expect(published).toMatchObject({ slug: 'an-article-in-draft', slugOrigin: 'translated', markdown: 'Words readers see.', _status: 'published' })
    expect(published.formerSlugs?.map((r) => r.slug)).toEqual([created.slug])
    expect(await latest(created.id)).toMatchObject({ slug: 'an-article-in-draft', slugOrigin: 'translated', markdown: 'Words of the pending draft.', _status: 'draft' })

    // Published, the draft's words go live under the translated slug.
    await t.payload.update({ collection: 'articles', id: created.id, data: { _status: 'published' }, overrideAccess: false, user: cast.author })
    const after = await read(created.id)
    expect(after).toMatchObject({ slug: 'an-article-in-draft', markdown: 'Words of the pending draft.', _status: 'published' })
    expect(after.formerSlugs?.map((r) => r.slug)).toEqual([created.slug])
  })

  it('follows the published title when the draft has another: the draft keeps its own title and slug', async () => {
    api.dictionary.set('已发布的标题', 'The published title')
    const release = api.hold()
    const created = await write('已发布的标题', { markdown: 'Published body.' })
    await t.payload.update({ collection: 'articles', id: created.id, data: { title: '新的标题' }, draft: true, overrideAccess: false, user: cast.author })
    const draftSlug = (await latest(created.id)).slug
    expect(draftSlug).toMatch(/^xin-de-biao-ti(-\d+)?$/)
    release()
    await syncJobsIdle()

    expect(await read(created.id)).toMatchObject({ title: '已发布的标题', slug: 'the-published-title', slugOrigin: 'translated', _status: 'published' })
    expect(await latest(created.id)).toMatchObject({ title: '新的标题', slug: draftSlug, markdown: 'Published body.', _status: 'draft' })

    // Published from the admin (its form sends the draft's title and slug): the new title's translation follows.
    api.dictionary.set('新的标题', 'The new title')
    await t.payload.update({ collection: 'articles', id: created.id, data: { title: '新的标题', slug: draftSlug, _status: 'published' }, overrideAccess: false, user: cast.author })
    await syncJobsIdle()
    expect(await read(created.id)).toMatchObject({ title: '新的标题', slug: 'the-new-title', slugOrigin: 'translated', _status: 'published' })
  })
})
