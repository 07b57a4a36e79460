/**
 * The owner's dashboard: its SQL aggregates against crafted data (buckets in
 * APP_TIMEZONE across a DST change, empty buckets as zeros, drafts, scheduled
 * articles and deleted replies left out, an author's own scope), and
 * GET /api/dashboard for every role over Payload's real HTTP pipeline,
 * including the minute cache being purged by a new or deleted reply; the
 * site-wide rollups (kept by triggers) equal the direct aggregates, before and
 * after replies, articles, categories, tags, users and views change.
 */
import { handleEndpoints, type Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { computeDashboard, type DashboardData } from '../../src/plugins/dashboard/stats'
import { loadCategories, loadSeries, loadTags, loadTopArticles, loadTotals, type Period, type Scope, type StatsQuery } from '../../src/plugins/dashboard/queries'
import { poolOf, query } from '../../src/lib/pool'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'

const ZONE = 'America/New_York'
// 12:00 in New York, two days after clocks went forward (8 March 2026).
const NOW = new Date('2026-03-10T16:00:00Z')

let t: TestPayload
let payload: Payload
let cast: Awaited<ReturnType<typeof createCast>>
const ids: Record<string, number> = {}

async function sql(text: string, values: unknown[] = []): Promise<void> {
  await query(payload, text, values)
}

async function article(key: string, data: Record<string, unknown>, publishedAt: string | null): Promise<void> {
  const doc = await payload.create({ collection: 'articles', data: { title: key, format: 'markdown', markdown: `About ${key}`, ...data } as never })
  ids[key] = doc.id
  await sql('update articles set published_at = $2 where id = $1', [doc.id, publishedAt])
  // And in its latest version, which a later save starts from (src/plugins/drafts).
  await sql('update _articles_v set version_published_at = $2 where parent_id = $1 and latest', [doc.id, publishedAt])
}

async function reply(key: string, articleKey: string, createdAt: string): Promise<void> {
  const doc = await payload.create({ collection: 'replies', data: { article: ids[articleKey]!, body: `Reply ${key}` }, overrideAccess: false, user: cast.reader })
  ids[key] = doc.id
  await sql('update replies set created_at = $2 where id = $1', [doc.id, createdAt])
}

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync', APP_TIMEZONE: ZONE })
  payload = t.payload
  cast = await createCast(payload)
  const news = (await payload.create({ collection: 'categories', data: { name: 'News' } })).id
  const essays = (await payload.create({ collection: 'categories', data: { name: 'Essays' } })).id
  const tagA = (await payload.create({ collection: 'tags', data: { name: 'Alpha' } })).id
  const tagB = (await payload.create({ collection: 'tags', data: { name: 'Beta' } })).id
  Object.assign(ids, { news, essays, tagA, tagB })
  const published = { status: 'published' }
  // 23:30 on 9 March in New York (EDT), 03:30 on the 10th in UTC.
  await article('late', { ...published, author: cast.author.id, category: news, tags: [tagA, tagB] }, '2026-03-10T03:30:00Z')
  // 23:30 on 7 March in New York (still EST), before the change.
  await article('beforeDst', { ...published, author: cast.otherAuthor.id, category: news, tags: [tagA] }, '2026-03-08T04:30:00Z')
  await article('draft', { status: 'draft', author: cast.author.id, category: news, tags: [tagA] }, '2026-03-05T12:00:00Z')
  // Scheduled: published status, but its time is to come (after NOW, and after the real now of the REST tests).
  await article('scheduled', { ...published, author: cast.author.id, category: essays, tags: [tagB] }, '2099-03-12T12:00:00Z')
  await article('old', { ...published, author: cast.author.id, category: essays }, '2025-12-01T12:00:00Z')
  // 00:00 on 10 March in New York.
  await reply('onLate', 'late', '2026-03-10T04:00:00Z')
  await reply('onOld', 'old', '2026-01-15T12:00:00Z')
  await reply('deleted', 'beforeDst', '2026-03-09T12:00:00Z')
  await payload.delete({ collection: 'replies', id: ids.deleted! })
  await sql(
    `insert into article_view_days (article_id, day, views) values ($1, '2026-03-09', 5), ($1, '2026-03-10', 2), ($2, '2026-02-01', 7), ($3, '2026-03-06', 4)`,
    [ids.late, ids.old, ids.beforeDst],
  )
  // The all-time counters the view sync keeps beside the daily rows.
  await sql('update articles set view_count = $2 where id = $1', [ids.late, 7])
  await sql('update articles set view_count = $2 where id = $1', [ids.old, 7])
  await sql('update articles set view_count = $2 where id = $1', [ids.beforeDst, 4])
})
afterAll(() => t?.destroy())

const SITE: Scope = { kind: 'site' }
const stats = async (period: Period, scope: Scope = SITE, timeZone = ZONE, articleId?: number) =>
  (await computeDashboard(payload, { period, scope, timeZone, now: NOW, articleId }))!
const nonZero = (data: DashboardData, key: 'articles' | 'replies' | 'views') =>
  Object.fromEntries(data.series.filter((p) => p[key] !== 0).map((p) => [p.bucket, p[key]]))

describe('dashboard aggregates', () => {
  it('buckets the last 30 days in APP_TIMEZONE, every day present, empty ones 0', async () => {
    const data = await stats('day')
    expect(data.series).toHaveLength(30)
    expect(data.series[0]!.bucket).toBe('2026-02-09')
    expect(data.series.at(-1)!.bucket).toBe('2026-03-10')
    expect(data.series.filter((p) => p.articles === 0 && p.replies === 0 && p.views === 0)).toHaveLength(26)
    // New York days: the late article on the 9th, the one before the DST change on the 7th.
    expect(nonZero(data, 'articles')).toEqual({ '2026-03-07': 1, '2026-03-09': 1 })
    expect(nonZero(data, 'replies')).toEqual({ '2026-03-10': 1 })
    expect(nonZero(data, 'views')).toEqual({ '2026-03-06': 4, '2026-03-09': 5, '2026-03-10': 2 })
  })

  it('moves the same rows to UTC days when the zone is UTC', async () => {
    const data = await stats('day', SITE, 'UTC')
    expect(nonZero(data, 'articles')).toEqual({ '2026-03-08': 1, '2026-03-10': 1 })
    expect(nonZero(data, 'replies')).toEqual({ '2026-03-10': 1 })
  })

  it('leaves drafts, scheduled articles and deleted replies out of totals, comment rate and groups', async () => {
    const data = await stats('day')
    expect(data.totals.articles).toEqual({ total: 3, inPeriod: 2 })
    expect(data.totals.replies).toEqual({ total: 2, inPeriod: 1 })
    // Replied: late and old, of late, beforeDst and old; at the period's start only old existed, replied.
    expect(data.totals.commentRate).toMatchObject({ repliedNow: 2, repliedAtStart: 1, atStart: 1 })
    expect(data.totals.commentRate.now).toBeCloseTo(2 / 3)
    expect(data.categories.map((c) => [c.name, c.articles])).toEqual([['News', 2]])
    expect(data.tags.map((c) => [c.name, c.articles])).toEqual([['Alpha', 2], ['Beta', 1]])
    expect(data.totals.users).toEqual({ total: 0, inPeriod: 0 }) // the cast registered after NOW
  })

  it('groups per month and per year, with empty months and years as 0', async () => {
    const months = await stats('month')
    expect(months.series.map((p) => p.bucket)).toEqual([
      '2025-04-01', '2025-05-01', '2025-06-01', '2025-07-01', '2025-08-01', '2025-09-01',
      '2025-10-01', '2025-11-01', '2025-12-01', '2026-01-01', '2026-02-01', '2026-03-01',
    ])
    expect(nonZero(months, 'articles')).toEqual({ '2025-12-01': 1, '2026-03-01': 2 })
    expect(nonZero(months, 'replies')).toEqual({ '2026-01-01': 1, '2026-03-01': 1 })
    expect(nonZero(months, 'views')).toEqual({ '2026-02-01': 7, '2026-03-01': 11 })
    expect(months.categories.map((c) => [c.name, c.articles])).toEqual([['News', 2], ['Essays', 1]])
    expect(months.totals.commentRate).toMatchObject({ repliedAtStart: 0, atStart: 0 })

    const years = await stats('year')
    expect(years.series.map((p) => [p.bucket, p.articles])).toEqual([
      ['2022-01-01', 0], ['2023-01-01', 0], ['2024-01-01', 0], ['2025-01-01', 1], ['2026-01-01', 2],
    ])
  })

  it('charts one article’s views per bucket, the most viewed by default', async () => {
    const data = await stats('day')
    expect(data.topArticles.map((a) => [a.id, a.views])).toEqual([[ids.late, 7], [ids.old, 7], [ids.beforeDst, 4]])
    expect(data.article?.id).toBe(ids.late)
    expect(data.article!.series).toHaveLength(30)
    expect(data.article!.series.filter((p) => p.views > 0)).toEqual([{ bucket: '2026-03-09', views: 5 }, { bucket: '2026-03-10', views: 2 }])
  })

  it('gives an author their own articles only', async () => {
    const mine: Scope = { kind: 'author', authorId: cast.author.id }
    const data = await stats('month', mine)
    expect(data.totals.users).toBeNull()
    expect(data.series.every((p) => p.users === null)).toBe(true)
    expect(data.totals.articles).toEqual({ total: 2, inPeriod: 2 })
    expect(data.totals.replies).toEqual({ total: 2, inPeriod: 2 })
    expect(nonZero(data, 'views')).toEqual({ '2026-02-01': 7, '2026-03-01': 7 })
    expect(data.topArticles.map((a) => a.id)).toEqual([ids.late, ids.old])
    expect(await computeDashboard(payload, { period: 'day', scope: mine, timeZone: ZONE, now: NOW, articleId: ids.beforeDst })).toBeUndefined()
  })
})

async function token(email: string): Promise<string> {
  return (await payload.login({ collection: 'users', data: { email, password: PASSWORD } })).token!
}

async function get(path: string, email?: string): Promise<{ status: number; body: any; headers: Headers }> {
  const headers = new Headers()
  if (email) headers.set('authorization', `JWT ${await token(email)}`)
  const response = await handleEndpoints({ config: payload.config, request: new Request(`http://localhost:3000/api${path}`, { headers }), payloadInstanceCacheKey: t.databaseName })
  return { status: response.status, body: await response.json(), headers: response.headers }
}

describe('GET /api/dashboard', () => {
  it('answers the site owner and the administrator with the whole site', async () => {
    for (const email of ['owner@example.test', 'admin@example.test']) {
      const { status, body, headers } = await get('/dashboard?period=month', email)
      expect(status).toBe(200)
      expect(headers.get('cache-control')).toBe('private, no-store')
      expect(body.scope).toBe('site')
      expect(body.timeZone).toBe(ZONE)
      expect(body.series).toHaveLength(12)
      expect(body.totals.users.total).toBe(5)
    }
  })

  it('answers an author with their own articles only, and 404 for another author’s article', async () => {
    const own = await get('/dashboard?period=year', 'author@example.test')
    expect(own.status).toBe(200)
    expect(own.body.scope).toBe('author')
    expect(own.body.totals.users).toBeNull()
    expect(own.body.totals.articles.total).toBe(2)
    const other = await get(`/dashboard?article=${ids.beforeDst}`, 'author@example.test')
    expect(other.status).toBe(404)
    expect(other.body.errors[0]).toMatchObject({ data: { errors: [{ path: 'article' }] } })
  })

  it('refuses a reader with a clear 403 and an anonymous visitor with 401', async () => {
    const reader = await get('/dashboard', 'reader@example.test')
    expect(reader.status).toBe(403)
    expect(reader.body.errors[0].message).toMatch(/admin\.dashboard/)
    expect(reader.body.totals).toBeUndefined()
    const anonymous = await get('/dashboard')
    expect(anonymous.status).toBe(401)
  })

  it('answers 400 naming the parameter for a bad period or article', async () => {
    const period = await get('/dashboard?period=week', 'owner@example.test')
    expect(period.status).toBe(400)
    expect(period.body.errors[0]).toMatchObject({ data: { errors: [{ path: 'period' }] } })
    const article = await get('/dashboard?article=1%20or%201=1', 'owner@example.test')
    expect(article.status).toBe(400)
    expect(article.body.errors[0]).toMatchObject({ data: { errors: [{ path: 'article' }] } })
  })

  it('serves from its minute cache, purged when a reply is added or deleted', async () => {
    const fresh = await payload.create({ collection: 'articles', data: { title: 'Fresh', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id } })
    const before = (await get('/dashboard', 'owner@example.test')).body.totals
    await sql(`insert into users (email, name, created_at, updated_at) values ('behind@example.test', 'Behind', now(), now())`)
    // Written behind Payload's back: no purge, so the cached answer stands.
    expect((await get('/dashboard', 'owner@example.test')).body.totals.users).toEqual(before.users)
    const added = await payload.create({ collection: 'replies', data: { article: fresh.id, body: 'Hello' }, overrideAccess: false, user: cast.reader })
    const after = (await get('/dashboard', 'owner@example.test')).body.totals
    expect(after.users).toEqual({ total: before.users.total + 1, inPeriod: before.users.inPeriod + 1 })
    expect(after.replies).toEqual({ total: before.replies.total + 1, inPeriod: before.replies.inPeriod + 1 })
    await payload.delete({ collection: 'replies', id: added.id })
    expect((await get('/dashboard', 'owner@example.test')).body.totals.replies).toEqual(before.replies)
  })
})

describe('dashboard rollups', () => {
  const widgets = (q: StatsQuery) =>
    Promise.all([loadTotals(payload, q), loadSeries(payload, q), loadCategories(payload, q), loadTags(payload, q), loadTopArticles(payload, q)])

  /** Every site widget read from the rollups equals the direct aggregate, for each period, in zones of whole, half and quarter hours, then and now. */
  async function agree(): Promise<void> {
    for (const now of [NOW, new Date()]) {
      for (const timeZone of [ZONE, 'UTC', 'Asia/Kolkata', 'Asia/Kathmandu']) {
        for (const period of ['day', 'month', 'year'] as Period[]) {
          const q: StatsQuery = { period, timeZone, now, scope: SITE }
          expect(await widgets(q), `${period} in ${timeZone} at ${now.toISOString()}`).toEqual(await widgets({ ...q, direct: true }))
        }
      }
    }
  }

  it('equal the direct aggregates on the crafted data, in any zone, including the quarter hour holding now', async () => {
    await agree()
    // The REST tests' fresh article and its reply fall in the current quarter: read from the base tables.
    const live = await stats('day', SITE, ZONE)
    expect(live.totals.articles.total).toBe(3)
  })

  it('follow a deleted reply, an unpublished article, a changed category and tags, new users and views', async () => {
    const before = await stats('day')
    await payload.delete({ collection: 'replies', id: ids.onLate! })
    let after = await stats('day')
    expect(after.totals.replies).toEqual({ total: before.totals.replies.total - 1, inPeriod: before.totals.replies.inPeriod - 1 })
    expect(after.totals.commentRate.repliedNow).toBe(before.totals.commentRate.repliedNow - 1)
    expect(nonZero(after, 'replies')).toEqual({})
    await agree()

    await payload.update({ collection: 'articles', id: ids.beforeDst!, data: { status: 'draft' } as never })
    after = await stats('day')
    expect(after.totals.articles.total).toBe(before.totals.articles.total - 1)
    expect(after.categories.map((c) => [c.name, c.articles])).toEqual([['News', 1]])
    await agree()

    await payload.update({ collection: 'articles', id: ids.late!, data: { category: ids.essays, tags: [ids.tagB] } as never })
    after = await stats('day')
    expect(after.categories.map((c) => [c.name, c.articles])).toEqual([['Essays', 1]])
    expect(after.tags.map((c) => [c.name, c.articles])).toEqual([['Beta', 1]])
    await agree()

    await sql(`insert into article_view_days (article_id, day, views) values ($1, '2026-03-08', 3)
               on conflict (article_id, day) do update set views = article_view_days.views + 3`, [ids.late])
    await sql(`update article_view_days set views = views + 1 where article_id = $1 and day = '2026-03-09'`, [ids.late])
    await sql(`update articles set view_count = view_count + 4 where id = $1`, [ids.late])
    await sql(`insert into users (email, name, created_at, updated_at) values ('rollup@example.test', 'Rollup', '2026-03-01T12:00:00Z', now())`)
    after = await stats('day')
    expect(nonZero(after, 'views')).toMatchObject({ '2026-03-08': 3, '2026-03-09': 6 })
    expect(after.totals.users).toEqual({ total: 1, inPeriod: 1 })
    expect(after.topArticles[0]).toMatchObject({ id: ids.late, views: 11 })
    await agree()

    await sql('delete from article_view_days where article_id = $1', [ids.late])
    await payload.delete({ collection: 'replies', id: ids.onOld! }) // an article with replies cannot be deleted (replies.article is required)
    await payload.delete({ collection: 'articles', id: ids.old! })
    expect((await stats('year')).totals.articles.total).toBe(1)
    await agree()
  })

  it('recount from scratch to the same figures (the backfill)', async () => {
    const read = async () => {
      const { rows } = await poolOf(payload).query(
        `select (select json_agg(d order by d.article_id) from dashboard_articles d) as articles,
                (select json_agg(d order by d.q) from dashboard_quarters d where (d.articles, d.reply_sum, d.with_replies, d.replied, d.replies, d.users) <> (0, 0, 0, 0, 0, 0)) as quarters,
                (select json_agg(d order by d.q, d.category_id) from dashboard_category_quarters d where (d.articles, d.replies, d.views) <> (0, 0, 0)) as categories,
                (select json_agg(d order by d.q, d.tag_id) from dashboard_tag_quarters d where (d.articles, d.replies, d.views) <> (0, 0, 0)) as tags,
                (select json_agg(d order by d.day) from dashboard_view_days d where d.views <> 0) as views`,
      )
      return rows[0]
    }
    const kept = await read()
    await sql('select dashboard_rebuild()')
    expect(await read()).toEqual(kept)
  })
})
