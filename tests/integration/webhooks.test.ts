/**
 * Webhooks in pg-boss mode against a real receiver on loopback (allowed by
 * OUTBOUND_ALLOW_PRIVATE=true here) that verifies every signature with the
 * `standardwebhooks` library: events, payload shape, exactly-once delivery of a
 * burst, an outage (the backoff shortened through the plugin's options) with
 * nothing lost or repeated, 4xx not retried, a hanging receiver that holds no
 * request, redelivery, ping and secret rotation.
 */
import { createLocalReq, initTransaction, killTransaction } from 'payload'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { query } from '../../src/lib/pool'
import { webhooksPlugin } from '../../src/plugins/webhooks'
import { writeArticle } from '../helpers/articles'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { createCast, PASSWORD } from '../helpers/users'
import { waitUntil } from '../helpers/waitUntil'
import { startReceiver, type Receiver } from '../helpers/webhookReceiver'

let t: TestPayload
let receiver: Receiver
let cast: Awaited<ReturnType<typeof createCast>>
let owner: Browser
let hookId: number

const ALL_EVENTS = ['article.published', 'article.updated', 'article.unpublished', 'article.deleted', 'article.scheduled', 'reply.created', 'reply.deleted', 'user.registered', 'category.created', 'category.updated', 'category.deleted', 'tag.created', 'tag.updated', 'tag.deleted', 'settings.updated']

beforeAll(async () => {
  receiver = await startReceiver()
  t = await createTestPayload(
    { QUEUE_CONNECTION: 'pgboss', OUTBOUND_ALLOW_PRIVATE: 'true' },
    {
      plugins: (compose, env) =>
        compose(env, { without: ['webhooks'], extra: [webhooksPlugin({ outbound: env.outbound, retryBaseMs: 200, retryCapMs: 1_000, retryWindowMs: 120_000 })] }),
    },
  )
  cast = await createCast(t.payload)
  owner = new Browser(t.payload, t.databaseName)
  expect((await owner.login('owner@example.test', PASSWORD)).status).toBe(200)
  const created = await owner.request('/api/webhooks', { json: { url: receiver.url, events: ALL_EVENTS, description: 'Test receiver' } })
  expect(created.status).toBe(201)
  const doc = (await created.json()).doc
  hookId = doc.id
  receiver.secrets = [doc.secret]
}, 120_000)

afterAll(async () => {
  await t?.destroy()
  await receiver?.stop()
})

beforeEach(() => {
  receiver.mode = { kind: 'ok' }
})

const ofType = (type: string) => receiver.received.filter((r) => r.type === type)
const deliveries = (where = 'true', params: unknown[] = []) =>
  query<{ id: number; status: string; attempt_count: string; attempts: { status: number | null; error: string | null; durationMs: number }[]; message_id: string }>(
    t.payload,
    `select id, status, attempt_count, attempts, message_id from webhook_deliveries where ${where} order by id`,
    params,
  )

describe('the webhooks collection', () => {
  it('shows the secret once, hides it after, and is for holders of webhooks.manage only', async () => {
    expect(receiver.secrets[0]).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const again = await (await owner.request(`/api/webhooks/${hookId}`)).json()
    expect(again.secret).toBeUndefined()
    expect(again.owner).toBeTruthy()
    const reader = new Browser(t.payload, t.databaseName)
    await reader.login('reader@example.test', PASSWORD)
    expect((await reader.request('/api/webhooks', { json: { url: receiver.url, events: ['ping'] } })).status).toBe(403)
    expect((await (await reader.request('/api/webhooks')).json()).docs ?? []).toEqual([])
    expect((await reader.request(`/api/webhooks/${hookId}/ping`, { method: 'POST' })).status).toBe(403)
  })

  it('refuses plain http to a public host and unknown events', async () => {
    const http = await owner.request('/api/webhooks', { json: { url: 'http://example.com/hook', events: ['ping'] } })
    expect(http.status).toBe(400)
    expect(JSON.stringify(await http.json())).toContain('https')
    const unknown = await owner.request('/api/webhooks', { json: { url: 'https://example.com/hook', events: ['article.eaten'] } })
    expect(unknown.status).toBe(400)
  })
})

describe('events', () => {
  it('sends article.published with the public fields only, signed, and logs the attempt', async () => {
    const article = await writeArticle(t.payload, cast.author as never, 'Hooked article', { markdown: 'The secret body', excerpt: 'A summary' })
    const got = await waitUntil(async () => ofType('article.published').find((r) => r.body.data.id === article.id), { what: 'article.published' })
    expect(got.verified).toBe(true)
    expect(Object.keys(got.body).sort()).toEqual(['data', 'timestamp', 'type'])
    expect(got.body.data).toMatchObject({ id: article.id, title: 'Hooked article', slug: 'hooked-article' })
    expect(JSON.stringify(got.body)).not.toContain('The secret body')
    const [row] = await deliveries(`message_id = $1`, [got.id])
    await waitUntil(async () => (await deliveries(`message_id = $1`, [got.id]))[0]?.status === 'delivered', { what: 'delivered status' })
    expect(row).toBeTruthy()
  })

  it('sends nothing for a draft, then article.published, updated, unpublished and deleted as it changes', async () => {
    const draft = await writeArticle(t.payload, cast.author as never, 'Quiet draft', { status: 'draft', markdown: 'Draft words' })
    const update = (data: Record<string, unknown>) => t.payload.update({ collection: 'articles', id: draft.id, data, overrideAccess: false, user: cast.author as never })
    await update({ title: 'Quiet draft, edited' })
    await update({ status: 'published' })
    await waitUntil(async () => ofType('article.published').some((r) => r.body.data.id === draft.id), { what: 'published' })
    await update({ title: 'Loud article' })
    await waitUntil(async () => ofType('article.updated').some((r) => r.body.data.title === 'Loud article'), { what: 'updated' })
    await update({ status: 'draft' })
    await waitUntil(async () => ofType('article.unpublished').some((r) => r.body.data.id === draft.id), { what: 'unpublished' })
    const future = new Date(Date.now() + 86_400_000).toISOString()
    await update({ status: 'published', publishedAt: future })
    await waitUntil(async () => ofType('article.scheduled').some((r) => r.body.data.id === draft.id), { what: 'scheduled' })
    const published = await writeArticle(t.payload, cast.author as never, 'To be deleted')
    await t.payload.delete({ collection: 'articles', id: published.id, overrideAccess: false, user: cast.author as never })
    await waitUntil(async () => ofType('article.deleted').some((r) => r.body.data.id === published.id), { what: 'deleted' })
    const aboutDraft = receiver.received.filter((r) => r.body.data?.id === draft.id)
    expect(aboutDraft.map((r) => r.type)).toEqual(['article.published', 'article.updated', 'article.unpublished', 'article.scheduled'])
    // Metadata only: the body (Markdown, HTML, Lexical) never travels, published or not.
    for (const r of aboutDraft) expect(Object.keys(r.body.data).sort()).toEqual(['author', 'category', 'excerpt', 'id', 'language', 'publishedAt', 'slug', 'tags', 'title', 'updatedAt'])
  })

  it('sends reply, user, taxonomy and settings events, never a user’s e-mail', async () => {
    const article = await writeArticle(t.payload, cast.author as never, 'Replied to')
    const reply = await t.payload.create({ collection: 'replies', data: { article: article.id, body: 'Nice one' }, overrideAccess: false, user: cast.reader as never })
    await t.payload.delete({ collection: 'replies', id: reply.id })
    const category = await t.payload.create({ collection: 'categories', data: { name: 'Hooks' } })
    await t.payload.update({ collection: 'categories', id: category.id, data: { description: 'About hooks' } })
    await t.payload.delete({ collection: 'categories', id: category.id })
    const tag = await t.payload.create({ collection: 'tags', data: { name: 'hooked' } })
    await t.payload.update({ collection: 'tags', id: tag.id, data: { name: 'hooked-2' } })
    await t.payload.delete({ collection: 'tags', id: tag.id })
    await t.payload.updateGlobal({ slug: 'site-settings', data: {} })
    await t.payload.create({ collection: 'users', data: { email: 'newcomer@example.test', password: PASSWORD, name: 'Newcomer' } as never })
    for (const type of ['reply.created', 'reply.deleted', 'category.created', 'category.updated', 'category.deleted', 'tag.created', 'tag.updated', 'tag.deleted', 'settings.updated', 'user.registered']) {
      await waitUntil(async () => ofType(type).length > 0, { what: type })
    }
    expect(ofType('reply.created').find((r) => r.body.data.id === reply.id)!.body.data.body).toBe('Nice one')
    const user = ofType('user.registered').find((r) => r.body.data.name === 'Newcomer')!
    expect(JSON.stringify(user.body)).not.toContain('newcomer@example.test')
    expect(receiver.received.every((r) => r.verified)).toBe(true)
  })
})

describe('delivery', () => {
  it('records nothing when the change rolls back: the delivery and its job commit with it', async () => {
    const req = await createLocalReq({}, t.payload)
    await initTransaction(req)
    const tag = await t.payload.create({ collection: 'tags', data: { name: 'rolled-back' }, req })
    expect(await deliveries(`(body->'data'->>'id')::int = $1 and event = 'tag.created'`, [tag.id])).toEqual([]) // not visible outside the transaction
    await killTransaction(req)
    expect(await deliveries(`(body->'data'->>'id')::int = $1 and event = 'tag.created'`, [tag.id])).toEqual([])
    const jobs = await query(t.payload, `select 1 from pgboss.job where name = 'deliver-webhook' and data->>'deliveryId' not in (select id::text from webhook_deliveries)`)
    expect(jobs).toEqual([])
  })

  it('delivers a burst of 200 events exactly once each', { timeout: 150_000 }, async () => {
    const names = Array.from({ length: 200 }, (_, i) => `burst-${i}`)
    for (let i = 0; i < names.length; i += 10) await Promise.all(names.slice(i, i + 10).map((name) => t.payload.create({ collection: 'tags', data: { name } })))
    const arrived = () => ofType('tag.created').filter((r) => names.includes(r.body.data.name) && r.answered === 204)
    await waitUntil(async () => arrived().length >= 200, { timeoutMs: 120_000, what: 'the burst' })
    expect(new Set(arrived().map((r) => r.body.data.name)).size).toBe(200)
    expect([...receiver.delivered().values()].every((n) => n === 1)).toBe(true)
  })

  it('loses and repeats nothing while the receiver is down (503), then delivers when it is back', { timeout: 120_000 }, async () => {
    receiver.mode = { kind: 'fail', status: 503 }
    const ids: number[] = []
    for (let i = 0; i < 5; i++) ids.push((await t.payload.create({ collection: 'tags', data: { name: `outage-${i}` } })).id)
    await waitUntil(async () => ofType('tag.created').filter((r) => r.answered === 503).length >= 10, { what: 'failed attempts' }) // retried
    receiver.mode = { kind: 'ok' }
    await waitUntil(async () => ids.every((id) => ofType('tag.created').some((r) => r.body.data.id === id && r.answered === 204)), { timeoutMs: 60_000, what: 'delivery after the outage' })
    expect([...receiver.delivered().values()].every((n) => n === 1)).toBe(true)
    // The receiver has answered; the job records the delivery just after it reads that answer.
    const rows = await waitUntil(async () => {
      const found = await deliveries(`event = 'tag.created' and (body->'data'->>'id')::int = any($1)`, [ids])
      return found.length === ids.length && found.every((r) => r.status === 'delivered' || r.status === 'failed') && found
    }, { what: 'the deliveries to be recorded' })
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'delivered'))
    expect(rows.every((r) => Number(r.attempt_count) >= 2 && r.attempts.at(-2)!.status === 503)).toBe(true)
  })

  it('does not retry a 4xx other than 429, and redelivers on demand', async () => {
    receiver.mode = { kind: 'fail', status: 410 }
    const tag = await t.payload.create({ collection: 'tags', data: { name: 'gone' } })
    const where = `event = 'tag.created' and (body->'data'->>'id')::int = $1`
    const [failed] = await waitUntil(async () => {
      const rows = await deliveries(where, [tag.id])
      return rows[0]?.status === 'failed' && rows
    }, { what: 'failed delivery' })
    expect(failed!.attempt_count).toBe('1')
    receiver.mode = { kind: 'ok' }
    const again = await owner.request(`/api/webhooks/${hookId}/redeliver`, { json: { delivery: failed!.id } })
    expect((await again.json()).redelivering).toEqual([failed!.id])
    await waitUntil(async () => (await deliveries(where, [tag.id]))[0]?.status === 'delivered', { what: 'redelivered' })
    expect(receiver.delivered().get(failed!.message_id)).toBe(1)
    // And every failed one at once.
    receiver.mode = { kind: 'fail', status: 404 }
    const lost = await Promise.all(['lost-1', 'lost-2'].map((name) => t.payload.create({ collection: 'tags', data: { name } })))
    const lostWhere = `event = 'tag.created' and (body->'data'->>'id')::int = any($1)`
    const lostIds = lost.map((l) => l.id)
    await waitUntil(async () => (await deliveries(lostWhere, [lostIds])).every((r) => r.status === 'failed'), { what: 'two failures' })
    receiver.mode = { kind: 'ok' }
    const all = await (await owner.request(`/api/webhooks/${hookId}/redeliver`, { json: { all: true } })).json()
    expect(all.redelivering).toHaveLength(2)
    await waitUntil(async () => (await deliveries(lostWhere, [lostIds])).every((r) => r.status === 'delivered'), { what: 'redelivered all' })
  })

  it('a hanging receiver ties up no request: the write returns at once, the attempt times out after 10 s and is retried', { timeout: 60_000 }, async () => {
    receiver.mode = { kind: 'hang' }
    const started = Date.now()
    const tag = await t.payload.create({ collection: 'tags', data: { name: 'hanging' } })
    expect(Date.now() - started).toBeLessThan(1_000)
    const where = `event = 'tag.created' and (body->'data'->>'id')::int = $1`
    await waitUntil(async () => (await deliveries(where, [tag.id]))[0]?.attempts.some((a) => a.error?.startsWith('OUTBOUND_TIMEOUT')), { timeoutMs: 20_000, what: 'timeout' })
    receiver.mode = { kind: 'slow', ms: 300 }
    await waitUntil(async () => (await deliveries(where, [tag.id]))[0]?.status === 'delivered', { timeoutMs: 30_000, what: 'delivered slowly' })
  })

  it('pings from the admin, and after a rotation signs with both secrets for a while', async () => {
    const oldSecret = receiver.secrets[0]!
    const rotated = await (await owner.request(`/api/webhooks/${hookId}/rotate-secret`, { method: 'POST' })).json()
    expect(rotated.secret).toMatch(/^whsec_/)
    expect(rotated.secret).not.toBe(oldSecret)
    const ping = await (await owner.request(`/api/webhooks/${hookId}/ping`, { method: 'POST' })).json()
    const [row] = await deliveries('id = $1', [ping.delivery])
    const got = await waitUntil(async () => receiver.received.find((r) => r.id === row!.message_id), { what: 'ping' })
    expect(got.type).toBe('ping')
    // The receiver that knows only the old secret, and one that knows only the new one, both verify.
    receiver.secrets = [oldSecret]
    const second = await (await owner.request(`/api/webhooks/${hookId}/ping`, { method: 'POST' })).json()
    const [row2] = await deliveries('id = $1', [second.delivery])
    expect((await waitUntil(async () => receiver.received.find((r) => r.id === row2!.message_id), { what: 'ping 2' })).verified).toBe(true)
    receiver.secrets = [rotated.secret]
    const third = await (await owner.request(`/api/webhooks/${hookId}/ping`, { method: 'POST' })).json()
    const [row3] = await deliveries('id = $1', [third.delivery])
    expect((await waitUntil(async () => receiver.received.find((r) => r.id === row3!.message_id), { what: 'ping 3' })).verified).toBe(true)
  })
})
