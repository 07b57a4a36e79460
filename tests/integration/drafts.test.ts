/**
 * Issue 34: drafts, revisions and preview of articles (src/plugins/drafts).
 * A draft of a published article stays invisible on every read path (REST,
 * GraphQL, the Local API with access enforced, the reader site's page, lists,
 * feeds, search and sitemap) until it is published; revisions are kept up to
 * the limit and restored; `status` follows Payload's `_status`; preview links
 * are signed, expire, and open exactly the article they were made for.
 */
import { handleEndpoints, type Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { getArticle, getPreviewArticle, latestArticlesWithBody, listArticles, search } from '../../frontend/src/lib/api'
import { sitemapRoot } from '../../frontend/src/lib/sitemap'
import { query } from '../../src/lib/pool'
import { installSitePayload } from '../../src/lib/sitePayload'
import type { Article } from '../../src/payload-types'
import { livePreviewPath, previewPath, signPreviewToken, verifyPreviewToken } from '../../src/plugins/drafts/previewToken'
import { writeArticle } from '../helpers/articles'
import { cli, json } from '../helpers/cliClient'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'
import { graphqlRequest } from './graphql-client'

const SITE = 'http://localhost:3000'
let t: TestPayload
let payload: Payload
let cast: Awaited<ReturnType<typeof createCast>>
let readerJwt: string
let authorJwt: string

const send = (path: string, authorization?: string, init: Parameters<typeof cli>[3] = {}) =>
  cli(t.payload, t.databaseName, path, { ...init, headers: { ...init.headers, ...(authorization ? { authorization } : {}) } })
const row = async (id: number) =>
  (await query<{ title: string; status: string; _status: string; slug: string; html: string }>(payload, 'select title, status, _status, slug, html from articles where id = $1', [id]))[0]!
const versionCount = async (id: number) => Number((await query(payload, 'select count(*) from _articles_v where parent_id = $1', [id]))[0]!.count)

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  payload = t.payload
  installSitePayload({ payload, rest: (request) => handleEndpoints({ config: payload.config, request }) })
  cast = await createCast(payload)
  readerJwt = (await payload.login({ collection: 'users', data: { email: 'reader@example.test', password: PASSWORD } })).token!
  authorJwt = (await payload.login({ collection: 'users', data: { email: 'author@example.test', password: PASSWORD } })).token!
})
afterAll(() => t?.destroy())

describe('a draft of a published article', () => {
  let article: Article
  const PUBLISHED = 'zebrafinch'
  const DRAFT = 'quokkadraft'

  /** Every way the public and other signed-in users read articles, as text. */
  async function everyReadPath(): Promise<Record<string, string>> {
    const id = article.id
    const gql = `{ Article(id: ${id}) { title markdown html } Articles(draft: true) { docs { title markdown } } versionsArticles { docs { version { title markdown } } } }`
    const sitemap = await sitemapRoot(SITE, { payload, max: 50_000 })
    return {
      restAnonymous: JSON.stringify((await send(`/api/articles/${id}`)).body),
      restAnonymousDraft: JSON.stringify((await send(`/api/articles/${id}?draft=true`)).body),
      restListDraft: JSON.stringify((await send(`/api/articles?draft=true`)).body),
      restReaderDraft: JSON.stringify((await send(`/api/articles/${id}?draft=true`, `JWT ${readerJwt}`)).body),
      restReaderVersions: JSON.stringify((await send(`/api/articles/versions`, `JWT ${readerJwt}`)).body),
      restOtherAuthorVersions: JSON.stringify(
        (await send(`/api/articles/versions`, `JWT ${(await payload.login({ collection: 'users', data: { email: 'author2@example.test', password: PASSWORD } })).token}`)).body,
      ),
      graphqlAnonymous: JSON.stringify(await graphqlRequest(t, gql)),
      graphqlReader: JSON.stringify(await graphqlRequest(t, gql, { authorization: `JWT ${readerJwt}` })),
      localApi: JSON.stringify(await payload.findByID({ collection: 'articles', id, draft: true, overrideAccess: false, user: cast.reader })),
      localApiList: JSON.stringify(await payload.find({ collection: 'articles', draft: true, overrideAccess: false })),
      page: JSON.stringify(await getArticle(id)),
      list: JSON.stringify(await listArticles({ sort: 'new' })),
      feeds: JSON.stringify(await latestArticlesWithBody()),
      search: JSON.stringify(await search({ q: DRAFT }).then((r) => ('result' in r ? r.result.docs : r))),
      searchPublished: JSON.stringify(await search({ q: PUBLISHED }).then((r) => ('result' in r ? r.result.docs : r))),
      sitemap: await sitemap.text(),
    }
  }

  beforeAll(async () => {
    article = await writeArticle(payload, cast.author, `Published ${PUBLISHED}`, { markdown: `The ${PUBLISHED} sings.` })
    // The author edits it in the admin: "Save draft" (a draft save through REST, as the admin sends it).
    const saved = await send(`/api/articles/${article.id}?draft=true`, `JWT ${authorJwt}`, {
      method: 'PATCH',
      ...json({ title: `Draft ${DRAFT}`, markdown: `The ${DRAFT} hides.`, slug: 'draft-slug', _status: 'draft' }),
    })
    expect(saved.status).toBe(200)
  })

  it('leaves the article row as published and keeps the change as the latest version', async () => {
    expect(await row(article.id)).toMatchObject({ title: `Published ${PUBLISHED}`, status: 'published', _status: 'published', slug: article.slug })
    const [latest] = await query(payload, 'select version_title, version_status, version__status, version_edited_by_id from _articles_v where parent_id = $1 and latest', [article.id])
    // Who saved it, for the history.
    expect(latest).toEqual({ version_title: `Draft ${DRAFT}`, version_status: 'draft', version__status: 'draft', version_edited_by_id: cast.author.id })
    // Its author reads the draft (the admin's form), rendered like the page will be.
    const own = await payload.findByID({ collection: 'articles', id: article.id, draft: true, overrideAccess: false, user: cast.author })
    expect(own.html).toContain(DRAFT)
  })

  it('is invisible on every read path until published, then visible on all of them', async () => {
    const before = await everyReadPath()
    for (const [path, text] of Object.entries(before)) expect(text, path).not.toContain(DRAFT)
    for (const path of ['restAnonymous', 'page', 'list', 'feeds', 'searchPublished']) expect(before[path], path).toContain(PUBLISHED)
    expect(before.sitemap).toContain(`/articles/${article.id}/${article.slug}`)

    // The author publishes the change (the admin's "Publish changes").
    const published = await send(`/api/articles/${article.id}`, `JWT ${authorJwt}`, { method: 'PATCH', ...json({ _status: 'published' }) })
    expect(published.status).toBe(200)
    expect(await row(article.id)).toMatchObject({ title: `Draft ${DRAFT}`, status: 'published', _status: 'published', slug: 'draft-slug' })
    const after = await everyReadPath()
    for (const path of ['restAnonymous', 'restAnonymousDraft', 'graphqlAnonymous', 'localApi', 'page', 'list', 'feeds', 'search']) {
      expect(after[path], path).toContain(DRAFT)
    }
    expect(after.sitemap).toContain(`/articles/${article.id}/draft-slug`)
    // Versions stay the author's: another author and a reader see none.
    expect(after.restReaderVersions).not.toContain(DRAFT)
    expect(after.restOtherAuthorVersions).not.toContain(DRAFT)
  })
})

describe('status and _status', () => {
  it('are one: status alone publishes and unpublishes, _status sets status', async () => {
    const made = await send('/api/articles', `JWT ${authorJwt}`, { method: 'POST', ...json({ title: 'Via status', format: 'markdown', markdown: 'x', status: 'published' }) })
    expect(made.status).toBe(201)
    const id = made.body.doc.id as number
    expect(await row(id)).toMatchObject({ status: 'published', _status: 'published' })
    await send(`/api/articles/${id}`, `JWT ${authorJwt}`, { method: 'PATCH', ...json({ status: 'draft' }) })
    expect(await row(id)).toMatchObject({ status: 'draft', _status: 'draft' })
    await send(`/api/articles/${id}`, `JWT ${authorJwt}`, { method: 'PATCH', ...json({ _status: 'published' }) })
    expect(await row(id)).toMatchObject({ status: 'published', _status: 'published' })
    // A save that names neither keeps the article published, even with a draft pending.
    await payload.update({ collection: 'articles', id, data: { title: 'Pending' }, draft: true, overrideAccess: false, user: cast.author })
    await payload.update({ collection: 'articles', id, data: { excerpt: 'Kept public' }, overrideAccess: false, user: cast.author })
    expect(await row(id)).toMatchObject({ status: 'published', _status: 'published' })
  })
})

describe('a save that names no status', () => {
  /** What the editor opens: the latest version. */
  const latest = (id: number) => payload.findByID({ collection: 'articles', id, draft: true, depth: 0, overrideAccess: true })
  const categoryOf = async (id: number) => (await query<{ c: number | null }>(payload, 'select category_id as c from articles where id = $1', [id]))[0]!.c

  it('in bulk keeps each article published or draft, and each pending draft with its text', async () => {
    const [news, notes] = await Promise.all(['Bulk news', 'Bulk notes'].map((name) => payload.create({ collection: 'categories', data: { name } as never })))
    // Published, with a pending draft of the change.
    const pending = await writeArticle(payload, cast.author, 'Bulk published', { markdown: 'Bulk live words', category: news!.id })
    await payload.update({ collection: 'articles', id: pending.id, data: { title: 'Bulk pending', markdown: 'Bulk pending words' }, draft: true, overrideAccess: false, user: cast.author })
    // Published, nothing pending.
    const plain = await writeArticle(payload, cast.author, 'Bulk plain', { markdown: 'Bulk plain words', category: news!.id })
    // Never published, autosaved since it was created (the row keeps the first text).
    const draft = await writeArticle(payload, cast.author, 'Bulk draft', { status: 'draft', markdown: 'Bulk first words', category: news!.id })
    await payload.update({ collection: 'articles', id: draft.id, data: { markdown: 'Bulk newer words' }, draft: true, autosave: true, overrideAccess: false, user: cast.author })

    const ids = [pending.id, plain.id, draft.id]
    const moved = await send(`/api/articles?where[id][in]=${ids.join(',')}&depth=0`, `JWT ${authorJwt}`, { method: 'PATCH', ...json({ category: notes!.id }) })
    expect(moved.status).toBe(200)
    expect(moved.body.docs).toHaveLength(3)
    for (const id of ids) expect(await categoryOf(id), `row ${id}`).toBe(notes!.id)

    // Readers: the published states, with the new category; the draft is still nobody's.
    expect(await row(pending.id)).toMatchObject({ title: 'Bulk published', status: 'published', _status: 'published' })
    expect((await row(pending.id)).html).toContain('Bulk live words')
    expect(await getArticle(pending.id)).toMatchObject({ title: 'Bulk published', category: { id: notes!.id } })
    expect(await row(plain.id)).toMatchObject({ title: 'Bulk plain', status: 'published', _status: 'published' })
    expect(await row(draft.id)).toMatchObject({ status: 'draft', _status: 'draft' })
    expect(await getArticle(draft.id)).toBeNull()

    // The editor: each pending draft kept with its text, and the change made to it too.
    expect(await latest(pending.id)).toMatchObject({ title: 'Bulk pending', markdown: 'Bulk pending words', _status: 'draft', category: notes!.id })
    expect(await latest(plain.id)).toMatchObject({ title: 'Bulk plain', markdown: 'Bulk plain words', _status: 'published', category: notes!.id })
    expect(await latest(draft.id)).toMatchObject({ markdown: 'Bulk newer words', _status: 'draft', category: notes!.id })

    // Published later, the pending draft goes live with the category the bulk edit gave.
    expect((await send(`/api/articles/${pending.id}`, `JWT ${authorJwt}`, { method: 'PATCH', ...json({ _status: 'published' }) })).status).toBe(200)
    expect(await row(pending.id)).toMatchObject({ title: 'Bulk pending', status: 'published' })
    expect(await categoryOf(pending.id)).toBe(notes!.id)
  })

  it('by id changes the published article, not its pending draft, and keeps the draft', async () => {
    const [before, after] = await Promise.all(['One news', 'One notes'].map((name) => payload.create({ collection: 'categories', data: { name } as never })))
    const article = await writeArticle(payload, cast.author, 'One published', { markdown: 'One live words', category: before!.id })
    await payload.update({ collection: 'articles', id: article.id, data: { title: 'One pending', markdown: 'One pending words' }, draft: true, overrideAccess: false, user: cast.author })
    const moved = await send(`/api/articles/${article.id}?depth=0`, `JWT ${authorJwt}`, { method: 'PATCH', ...json({ category: after!.id }) })
    expect(moved.status).toBe(200)
    expect(await row(article.id)).toMatchObject({ title: 'One published', status: 'published', _status: 'published' })
    expect((await row(article.id)).html).toContain('One live words')
    expect(await categoryOf(article.id)).toBe(after!.id)
    expect(await latest(article.id)).toMatchObject({ title: 'One pending', markdown: 'One pending words', _status: 'draft', category: after!.id })
  })
})

describe('revisions', () => {
  it('keeps one per save, at most 50 per article, the oldest pruned', async () => {
    const article = await writeArticle(payload, cast.author, 'Revision 0')
    expect(await versionCount(article.id)).toBe(1)
    await payload.update({ collection: 'articles', id: article.id, data: { title: 'Revision 1' }, draft: true, overrideAccess: false, user: cast.author })
    expect(await versionCount(article.id)).toBe(2)
    // 48 more, older than any save to come (written by SQL: 48 saves through Payload would cost the suite seconds).
    await query(
      payload,
      `update _articles_v set updated_at = now() - interval '200 seconds' where parent_id = $1 and version_title = 'Revision 0';
       insert into _articles_v (parent_id, version_title, version_format, version_status, version__status, latest, autosave, created_at, updated_at)
       select $1, 'Copy ' || g, 'markdown', 'draft', 'draft', false, false, now() - make_interval(secs => 100 - g), now() - make_interval(secs => 100 - g)
       from generate_series(1, 48) g`.replace(/\$1/g, String(article.id)),
    )
    expect(await versionCount(article.id)).toBe(50)
    for (const title of ['Revision 2', 'Revision 3']) {
      await payload.update({ collection: 'articles', id: article.id, data: { title }, draft: true, overrideAccess: false, user: cast.author })
    }
    expect(await versionCount(article.id)).toBe(50)
    const titles = (await query<{ t: string }>(payload, 'select version_title as t from _articles_v where parent_id = $1 order by updated_at', [article.id])).map((r) => r.t)
    expect(titles.slice(0, 2)).toEqual(['Copy 2', 'Copy 3'])
    expect(titles.slice(-3)).toEqual(['Revision 1', 'Revision 2', 'Revision 3'])
  })

  it('autosaves update the latest autosave version in place', async () => {
    const article = await writeArticle(payload, cast.author, 'Autosaved')
    for (const title of ['A', 'Au', 'Aut']) {
      await payload.update({ collection: 'articles', id: article.id, data: { title }, draft: true, autosave: true, overrideAccess: false, user: cast.author })
    }
    expect(await versionCount(article.id)).toBe(2)
    expect((await row(article.id)).title).toBe('Autosaved')
  })

  it('restores an older version: its text goes live, as a new version', async () => {
    const article = await writeArticle(payload, cast.author, 'First words', { markdown: 'Original body' })
    await payload.update({ collection: 'articles', id: article.id, data: { title: 'Second words', markdown: 'Changed body' }, overrideAccess: false, user: cast.author })
    const { docs } = await payload.findVersions({ collection: 'articles', where: { parent: { equals: article.id } }, sort: 'createdAt', overrideAccess: false, user: cast.author })
    expect(docs.map((d) => d.version.title)).toEqual(['First words', 'Second words'])
    await payload.restoreVersion({ collection: 'articles', id: String(docs[0]!.id), overrideAccess: false, user: cast.author })
    expect(await row(article.id)).toMatchObject({ title: 'First words', status: 'published' })
    expect((await row(article.id)).html).toContain('Original body')
    expect(await versionCount(article.id)).toBe(3)
    expect((await getArticle(article.id))?.title).toBe('First words')
  })
})

describe('preview links', () => {
  const SECRET = 'a-secret-of-some-length'

  it('verify for their article until they expire, and never when tampered with', () => {
    const now = Date.parse('2026-11-26T12:00:00Z')
    const token = signPreviewToken(SECRET, 7, { now, ttlSeconds: 60 })
    expect(verifyPreviewToken(SECRET, 7, token, now)).toBe(true)
    expect(verifyPreviewToken(SECRET, 7, token, now + 59_000)).toBe(true)
    expect(verifyPreviewToken(SECRET, 7, token, now + 60_000)).toBe(false)
    expect(verifyPreviewToken(SECRET, 8, token, now)).toBe(false)
    expect(verifyPreviewToken('another-secret-entirely', 7, token, now)).toBe(false)
    const [expires, signature] = token.split('.') as [string, string]
    expect(verifyPreviewToken(SECRET, 7, `${Number(expires) + 3600}.${signature}`, now)).toBe(false)
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1)
    expect(verifyPreviewToken(SECRET, 7, `${expires}.${flipped}`, now)).toBe(false)
    for (const junk of [undefined, null, '', 'x', `${expires}.`, `${expires}.${signature}=`, 'a'.repeat(100_000), 42]) {
      expect(verifyPreviewToken(SECRET, 7, junk, now)).toBe(false)
    }
    expect(previewPath(SECRET, 7, { now, ttlSeconds: 60 })).toBe(`/preview/7?token=${token}`)
  })

  it('for the live preview stay the same for the hour (the iframe keeps its URL across autosaves), and work for a day', () => {
    const at = Date.parse('2026-11-26T12:05:00Z')
    const path = livePreviewPath(SECRET, 7, at)
    expect(livePreviewPath(SECRET, 7, at + 50 * 60_000)).toBe(path)
    expect(livePreviewPath(SECRET, 7, at + 56 * 60_000)).not.toBe(path)
    const token = new URL(path, SITE).searchParams.get('token')
    expect(new URL(path, SITE).pathname).toBe('/preview/7')
    expect(verifyPreviewToken(SECRET, 7, token, at + 22 * 3_600_000)).toBe(true)
    expect(verifyPreviewToken(SECRET, 8, token, at)).toBe(false)
  })

  it('open the latest version of the article for whoever holds them, and nothing without', async () => {
    const article = await writeArticle(payload, cast.author, 'Preview me', { status: 'draft', markdown: 'Never published **yet**' })
    const token = signPreviewToken(payload.secret, article.id)
    expect((await getPreviewArticle(article.id, token))?.html).toContain('<strong>yet</strong>')
    expect(await getPreviewArticle(article.id, signPreviewToken('wrong-secret-here', article.id))).toBeNull()
    expect(await getPreviewArticle(article.id + 1, token)).toBeNull()
    expect(await getPreviewArticle(article.id, signPreviewToken(payload.secret, article.id, { now: Date.now() - 2 * 86_400_000 }))).toBeNull()
    expect(await getArticle(article.id)).toBeNull()
  })
})
