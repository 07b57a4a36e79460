/**
 * Webhooks with QUEUE_CONNECTION=sync (the default): the first attempt runs in
 * this process after the write commits, a retryable failure is retried by an
 * in-process timer after the (shortened) backoff, and the per-minute
 * `retry-webhooks` schedule finds whatever a lost timer or a dead process left
 * behind (a due row, a lapsed lease), so nothing is lost in sync mode either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { registeredCommands } from '../../jobs/commands'
import { syncJobsIdle } from '../../jobs/queue'
import { query } from '../../src/lib/pool'
import { webhooksPlugin } from '../../src/plugins/webhooks'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'
import { waitUntil } from '../helpers/waitUntil'
import { startReceiver, type Receiver } from '../helpers/webhookReceiver'

let t: TestPayload
let receiver: Receiver

beforeAll(async () => {
  receiver = await startReceiver()
  t = await createTestPayload(
    { QUEUE_CONNECTION: 'sync', OUTBOUND_ALLOW_PRIVATE: 'true' },
    { plugins: (compose, env) => compose(env, { without: ['webhooks'], extra: [webhooksPlugin({ outbound: env.outbound, retryBaseMs: 200, retryCapMs: 500 })] }) },
  )
  await createCast(t.payload)
  const hook = (await t.payload.create({ collection: 'webhooks', data: { url: receiver.url, events: ['tag.created'] } })) as unknown as { secret: string }
  receiver.secrets = [hook.secret]
}, 120_000)

afterAll(async () => {
  await t?.destroy()
  await receiver?.stop()
})

const rowOf = async (tagId: number) =>
  (await query<{ id: number; status: string; message_id: string }>(t.payload, `select id, status, message_id from webhook_deliveries where (body->'data'->>'id')::int = $1`, [tagId]))[0]!

describe('sync mode', () => {
  it('delivers after the write commits and retries a 503 in process', async () => {
    receiver.mode = { kind: 'fail', status: 503 }
    const tag = await t.payload.create({ collection: 'tags', data: { name: 'sync-retry' } })
    await syncJobsIdle()
    expect((await rowOf(tag.id)).status).toBe('pending')
    receiver.mode = { kind: 'ok' }
    await waitUntil(async () => (await rowOf(tag.id)).status === 'delivered', { what: 'delivery by the retry timer' })
    expect(receiver.delivered().get((await rowOf(tag.id)).message_id)).toBe(1)
  })

  it('the retry-webhooks schedule sends what was left behind, once', async () => {
    const retry = registeredCommands(t.payload).schedules.find((s) => s.name === 'retry-webhooks')!
    receiver.mode = { kind: 'ok' }
    const due = await t.payload.create({ collection: 'tags', data: { name: 'left-due' } })
    const leased = await t.payload.create({ collection: 'tags', data: { name: 'left-leased' } })
    await syncJobsIdle()
    // As if the process died: one row still due (its timer lost), one mid-attempt with a lapsed lease.
    await query(t.payload, `update webhook_deliveries set status = 'pending', next_attempt_at = now() - interval '1 second', delivered_at = null where id = $1`, [(await rowOf(due.id)).id])
    await query(t.payload, `update webhook_deliveries set status = 'sending', lease_until = now() - interval '1 second', delivered_at = null where id = $1`, [(await rowOf(leased.id)).id])
    const before = receiver.received.length
    const summary = await retry.run(t.payload, { log: () => {}, progress: () => {} })
    expect(summary).toBe('attempted 2 due webhook deliveries')
    expect((await rowOf(due.id)).status).toBe('delivered')
    expect((await rowOf(leased.id)).status).toBe('delivered')
    expect(receiver.received.length - before).toBe(2)
    expect(await retry.run(t.payload, { log: () => {}, progress: () => {} })).toBe('attempted 0 due webhook deliveries')
  })

  it("sends article.published when a scheduled article's time comes, once (announce-scheduled-articles)", async () => {
    const announce = registeredCommands(t.payload).schedules.find((s) => s.name === 'announce-scheduled-articles')!
    const io = { log: () => {}, progress: () => {} }
    await announce.run(t.payload, io) // the first run sets where the next one starts
    const hook = (await t.payload.create({ collection: 'webhooks', data: { url: receiver.url, events: ['article.published', 'article.scheduled'] } })) as unknown as { secret: string }
    receiver.secrets = [...receiver.secrets, hook.secret]
    receiver.mode = { kind: 'ok' }
    const author = (await t.payload.find({ collection: 'users', where: { email: { equals: 'author@example.test' } } })).docs[0]!
    const publishAt = new Date(Date.now() + 1_500)
    const article = await t.payload.create({
      collection: 'articles',
      data: { title: 'Arrives later', format: 'markdown', markdown: 'Soon.', status: 'published', publishedAt: publishAt.toISOString() },
      overrideAccess: false,
      user: author,
    })
    await syncJobsIdle()
    const events = async () => (await query<{ event: string }>(t.payload, `select event from webhook_deliveries where (body->'data'->>'id')::int = $1 and event::text like 'article.%' order by id`, [article.id])).map((r) => r.event)
    expect(await events()).toEqual(['article.scheduled'])
    await waitUntil(async () => Date.now() > publishAt.getTime(), { what: 'the publish time' })
    expect(await announce.run(t.payload, io)).toMatch(/^1 scheduled/)
    await syncJobsIdle()
    expect(await events()).toEqual(['article.scheduled', 'article.published'])
    expect(await announce.run(t.payload, io)).toMatch(/^0 scheduled/)
    expect(await events()).toEqual(['article.scheduled', 'article.published'])
  })
})
