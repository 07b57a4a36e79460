/**
 * Slugs without translation credentials: made at once by transliteration
 * (pinyin for Chinese), unique under concurrent saves, following the title
 * while automatic, never overwriting an editor's slug, and the title never
 * leaves the site (a translation server listening at TRANSLATE_ENDPOINT hears
 * nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { registeredCommands } from '../../jobs/commands'
import { syncJobsIdle } from '../../jobs/queue'
import { writeArticle } from '../helpers/articles'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { startTranslationServer, type TranslationServer } from '../helpers/translationServer'
import { createCast, PASSWORD } from '../helpers/users'
import { graphqlRequest } from './graphql-client'

let t: TestPayload
let api: TranslationServer
let cast: Awaited<ReturnType<typeof createCast>>

beforeAll(async () => {
  api = await startTranslationServer()
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync', TRANSLATE_APPID: '', TRANSLATE_KEY: '', TRANSLATE_ENDPOINT: api.url })
  cast = await createCast(t.payload)
})
afterAll(async () => {
  await syncJobsIdle()
  await t?.destroy()
  await api?.stop()
})

const write = (title: string, extra: Record<string, unknown> = {}) => writeArticle(t.payload, cast.author, title, extra)
const read = (id: number) => t.payload.findByID({ collection: 'articles', id, depth: 0, overrideAccess: true })

describe('slugs without translation', () => {
  it('transliterates at once: pinyin read by word for Chinese, other scripts too', async () => {
    expect((await write('重庆的银行')).slug).toBe('chong-qing-de-yin-hang')
    expect((await write('Привет, мир')).slug).toBe('privet-mir')
    expect((await write('Crème brûlée à la maison')).slug).toBe('creme-brulee-a-la-maison')
  })

  it('sends the title nowhere and registers no job', async () => {
    await write('你好世界')
    await syncJobsIdle()
    expect(api.calls).toHaveLength(0)
    expect(registeredCommands(t.payload).jobs['translate-slug']).toBeUndefined()
  })

  it('two concurrent saves of titles that give the same slug both succeed, with distinct slugs', async () => {
    const titles = ['Same Title!', 'same title', 'Same — title', 'SAME TITLE?']
    const created = await Promise.all(titles.map((title) => write(title)))
    const slugs = created.map((a) => a.slug)
    expect(new Set(slugs).size).toBe(titles.length)
    expect(slugs.every((s) => /^same-title(-\d+)?$/.test(s ?? ''))).toBe(true)
  })

  it('two concurrent saves over REST both succeed too', async () => {
    const browsers = [new Browser(t.payload, t.databaseName), new Browser(t.payload, t.databaseName)]
    for (const b of browsers) expect((await b.request('/api/users/login', { json: { email: 'author@example.test', password: PASSWORD } })).status).toBe(200)
    const replies = await Promise.all(browsers.map((b) => b.request('/api/articles', { json: { title: '并发 标题', format: 'markdown', markdown: 'x' } })))
    expect(replies.map((r) => r.status)).toEqual([201, 201])
    const slugs = await Promise.all(replies.map(async (r) => (await r.json()).doc.slug))
    expect(new Set(slugs).size).toBe(2)
  })

  it('an automatic slug follows the title and remembers the old one; an editor’s slug stays', async () => {
    const auto = await write('First title')
    await t.payload.update({ collection: 'articles', id: auto.id, data: { title: 'Second title' }, overrideAccess: false, user: cast.author })
    expect(await read(auto.id)).toMatchObject({ slug: 'second-title', slugOrigin: 'automatic', formerSlugs: [expect.objectContaining({ slug: 'first-title' })] })

    // The admin form sends the slug it shows with every save: unchanged, it is not an editor's choice.
    await t.payload.update({ collection: 'articles', id: auto.id, data: { title: 'Third title', slug: 'second-title' }, overrideAccess: false, user: cast.author })
    expect((await read(auto.id)).slug).toBe('third-title')

    await t.payload.update({ collection: 'articles', id: auto.id, data: { slug: 'Chosen Slug' }, overrideAccess: false, user: cast.author })
    expect(await read(auto.id)).toMatchObject({ slug: 'chosen-slug', slugOrigin: 'editor' })
    await t.payload.update({ collection: 'articles', id: auto.id, data: { title: 'Fourth title' }, overrideAccess: false, user: cast.author })
    const article = await read(auto.id)
    expect(article.slug).toBe('chosen-slug')
    expect(article.formerSlugs?.map((r) => r.slug)).toEqual(['first-title', 'second-title', 'third-title'])

    // Emptying the slug hands it back to the title.
    await t.payload.update({ collection: 'articles', id: auto.id, data: { slug: '' }, overrideAccess: false, user: cast.author })
    expect(await read(auto.id)).toMatchObject({ slug: 'fourth-title', slugOrigin: 'automatic' })
  })

  it('over GraphQL, the slug origin cannot be set by a client either', async () => {
    const browser = new Browser(t.payload, t.databaseName)
    await browser.request('/api/users/login', { json: { email: 'author@example.test', password: PASSWORD } })
    const asAuthor = { cookie: browser.cookieHeader(), origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' }
    const me = await graphqlRequest(t, '{ meUser { user { id } } }', asAuthor)
    expect(me.data?.meUser?.user?.id).toBe(cast.author.id)
    const answer = await graphqlRequest(t, `mutation { createArticle(data: { title: "GraphQL title", format: markdown, markdown: "x", slugOrigin: editor }) { id slug slugOrigin } }`, asAuthor)
    // Either the value is dropped, or the request is refused; the slug is never the editor's.
    if (answer.data?.createArticle) expect(answer.data.createArticle).toMatchObject({ slug: 'graphql-title', slugOrigin: 'automatic' })
    else expect(answer.errors?.length).toBeGreaterThan(0)
    const { docs } = await t.payload.find({ collection: 'articles', where: { title: { equals: 'GraphQL title' } }, depth: 0 })
    expect(docs.every((d) => d.slugOrigin === 'automatic')).toBe(true)
  })
})
