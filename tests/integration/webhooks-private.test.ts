/**
 * Webhooks with OUTBOUND_ALLOW_PRIVATE off (the production setting), in sync
 * queue mode: plain http is refused when the hook is saved, and deliveries to
 * loopback, private, link-local (cloud metadata) and unique-local addresses are
 * refused by the guarded outbound fetch, logged, and not retried. A hook failing
 * for longer than 3 days is disabled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { syncJobsIdle } from '../../jobs/queue'
import { query } from '../../src/lib/pool'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { createCast, PASSWORD } from '../helpers/users'

let t: TestPayload
let owner: Browser

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync', OUTBOUND_ALLOW_PRIVATE: 'false' })
  await createCast(t.payload)
  owner = new Browser(t.payload, t.databaseName)
  expect((await owner.login('owner@example.test', PASSWORD)).status).toBe(200)
}, 120_000)

afterAll(async () => {
  await t?.destroy()
})

const hook = async (url: string) => owner.request('/api/webhooks', { json: { url, events: ['tag.created'] } })

describe('private targets with OUTBOUND_ALLOW_PRIVATE off', () => {
  it('refuses plain http even to loopback', async () => {
    expect((await hook('http://127.0.0.1:9/hook')).status).toBe(400)
  })

  it('refuses to deliver to loopback, private, link-local and unique-local addresses, and does not retry', async () => {
    const targets = ['https://127.0.0.1:9/hook', 'https://10.1.2.3/hook', 'https://169.254.169.254/latest/meta-data', 'https://[fd00::1]/hook', 'https://localhost:9/hook']
    const ids: number[] = []
    for (const url of targets) {
      const created = await hook(url)
      expect(created.status, url).toBe(201)
      ids.push((await created.json()).doc.id)
    }
    await t.payload.create({ collection: 'tags', data: { name: 'private' } })
    await syncJobsIdle()
    const rows = await query<{ webhook_id: number; status: string; attempt_count: string; last_error: string }>(
      t.payload,
      `select webhook_id, status, attempt_count, last_error from webhook_deliveries where webhook_id = any($1) order by webhook_id`,
      [ids],
    )
    expect(rows.map((r) => r.webhook_id)).toEqual(ids)
    for (const row of rows) {
      expect(row.status).toBe('failed')
      expect(row.attempt_count).toBe('1')
      expect(row.last_error).toMatch(/^OUTBOUND_REFUSED/)
    }
  })

  it('disables a hook that has failed for more than 3 days', async () => {
    const created = await (await hook('https://127.0.0.1:9/failing')).json()
    await query(t.payload, `update webhooks set failing_since = now() - interval '73 hours' where id = $1`, [created.doc.id])
    const ping = await owner.request(`/api/webhooks/${created.doc.id}/ping`, { method: 'POST' })
    expect(ping.status).toBe(200)
    await syncJobsIdle()
    const [row] = await query<{ enabled: boolean; disabled_reason: string }>(t.payload, 'select enabled, disabled_reason from webhooks where id = $1', [created.doc.id])
    expect(row).toMatchObject({ enabled: false })
    expect(row!.disabled_reason).toMatch(/^Failing since/)
  })
})
