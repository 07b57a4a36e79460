/**
 * Articles carry a language (issue 16): new ones take the site's default, a
 * valid BCP 47 tag is stored in its canonical spelling, anything else is a
 * 400 naming the field, on every path; the demo seed fills the home page's
 * description and keywords and marks its Chinese articles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { languageOf, seedSiteMeta } from '../../src/seed'
import { SITE_META } from '../../src/seed/content'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { createCast, PASSWORD } from '../helpers/users'
import { graphqlRequest } from './graphql-client'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>
let token: string

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  cast = await createCast(t.payload)
  token = (await t.payload.login({ collection: 'users', data: { email: 'author@example.test', password: PASSWORD } })).token!
})
afterAll(() => t?.destroy())

const post = (body: Record<string, unknown>) =>
  new Browser(t.payload, t.databaseName).request('/api/articles', { json: { title: 'Lang', format: 'markdown', markdown: 'x', ...body }, headers: { authorization: `JWT ${token}` } })

describe('article language', () => {
  it('defaults to the site’s language, which the owner sets in site settings', async () => {
    const before = await t.payload.create({ collection: 'articles', data: { title: 'Default', format: 'markdown', markdown: 'x', status: 'draft' }, overrideAccess: false, user: cast.author })
    expect(before.language).toBe('en')
    await t.payload.updateGlobal({ slug: 'site-settings', data: { defaultLanguage: 'zh-cn' }, overrideAccess: false, user: cast.owner })
    expect((await t.payload.findGlobal({ slug: 'site-settings' })).defaultLanguage).toBe('zh-CN')
    const after = await post({})
    expect(after.status).toBe(201)
    expect((await after.json()).doc.language).toBe('zh-CN')
    await t.payload.updateGlobal({ slug: 'site-settings', data: { defaultLanguage: 'en' } })
  })

  it('stores a chosen tag in its canonical spelling, and reads it back from the database', async () => {
    const response = await post({ language: 'PT-br' })
    expect(response.status).toBe(201)
    const { doc } = await response.json()
    expect((await t.payload.findByID({ collection: 'articles', id: doc.id })).language).toBe('pt-BR')
  })

  it('refuses what is not a language tag with a 400 naming the field, over REST and GraphQL', async () => {
    for (const language of ['english please', 'x'.repeat(36), '<script>']) {
      const response = await post({ language })
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(JSON.stringify(body)).toContain('language')
      expect(JSON.stringify(body)).toContain('Use a language tag such as en, zh-CN or pt-BR.')
    }
    const viaGraphql = await graphqlRequest(t, `mutation { createArticle(data: { title: "G", format: markdown, markdown: "x", language: "not a tag" }) { id } }`, { authorization: `JWT ${token}` })
    expect(viaGraphql.errors?.[0]?.message).toMatch(/invalid.*language|language/i)
  })
})

describe('the demo seed', () => {
  // The whole seed runs in the browser tests (tests/e2e/reader-rough-edges.test.ts checks the home page's keywords and a Chinese page's lang).
  it('fills the site’s default description and keywords, and keeps what an owner already set', async () => {
    await seedSiteMeta(t.payload)
    expect((await t.payload.findGlobal({ slug: 'site-settings' })).meta).toMatchObject({ description: SITE_META.description, keywords: SITE_META.keywords })
    await t.payload.updateGlobal({ slug: 'site-settings', data: { meta: { description: 'Mine', keywords: '' } } })
    await seedSiteMeta(t.payload)
    expect((await t.payload.findGlobal({ slug: 'site-settings' })).meta).toMatchObject({ description: 'Mine', keywords: SITE_META.keywords })
  })

  it('marks the Chinese demo titles zh-CN and the others en', () => {
    expect(languageOf('深入理解 PostgreSQL 索引')).toBe('zh-CN')
    expect(languageOf('Inkwell 1.0 is here')).toBe('en')
  })
})
