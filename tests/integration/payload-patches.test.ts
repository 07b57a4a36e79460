/**
 * The shape of Payload that src/lib/payloadPatches.ts relies on, on a real
 * instance: destroy() is the instance's to replace and shutdown callbacks run
 * (last registered first) while the database is still open; Payload's own
 * writes commit through db.commitTransaction, so after-commit work runs on
 * commit and never on rollback; payload.authStrategies is the array Payload's
 * auth goes through. When a Payload upgrade breaks one of these, this file
 * fails: look for a real extension point before mending the patch.
 */
import { commitTransaction, createLocalReq, initTransaction, killTransaction } from 'payload'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { afterCommit, onAuthenticated, onDestroy } from '../../src/lib/payloadPatches'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>

beforeAll(async () => {
  t = await createTestPayload()
  cast = await createCast(t.payload)
})
afterAll(async () => {
  await t?.destroy()
})

describe('after commit', () => {
  it("Payload's own writes commit through db.commitTransaction", async () => {
    const commit = vi.spyOn(t.payload.db, 'commitTransaction')
    try {
      await t.payload.create({ collection: 'tags', data: { name: 'committed' } })
      expect(commit).toHaveBeenCalled()
    } finally {
      commit.mockRestore()
    }
  })

  it('runs the callback once the transaction commits, not before', async () => {
    const req = await createLocalReq({}, t.payload)
    expect(await initTransaction(req)).toBe(true)
    const ran = vi.fn()
    await afterCommit(req, ran)
    await new Promise((resolve) => setImmediate(resolve))
    expect(ran).not.toHaveBeenCalled()
    await commitTransaction(req)
    await vi.waitFor(() => expect(ran).toHaveBeenCalledOnce())
  })

  it('drops the callback when the transaction rolls back', async () => {
    const req = await createLocalReq({}, t.payload)
    expect(await initTransaction(req)).toBe(true)
    const ran = vi.fn()
    await afterCommit(req, ran)
    await killTransaction(req)
    await new Promise((resolve) => setImmediate(resolve))
    expect(ran).not.toHaveBeenCalled()
  })
})

describe('authentication', () => {
  it('sees the user of every successful authentication through payload.authStrategies', async () => {
    expect(t.payload.authStrategies.map((s) => s.name)).toContain('local-jwt')
    const seen: unknown[] = []
    onAuthenticated(t.payload, (user) => seen.push(user.id))
    const { token } = await t.payload.login({ collection: 'users', data: { email: 'reader@example.test', password: PASSWORD } })
    const { user } = await t.payload.auth({ headers: new Headers({ authorization: `JWT ${token}` }) })
    expect(user?.id).toBe(cast.reader.id)
    expect(seen).toEqual([cast.reader.id])
  })
})

// Last: it shuts the instance down the way every process does (closePayload, through t.destroy()).
describe('shutdown', () => {
  it('runs the callbacks, last registered first, before the database closes', async () => {
    const order: string[] = []
    const { payload } = t
    const countTags = async () => (await payload.count({ collection: 'tags' })).totalDocs
    onDestroy(payload, async () => void order.push(`first (${await countTags()} tag)`))
    onDestroy(payload, async () => void order.push(`second (${await countTags()} tag)`))
    const destroying = t.destroy()
    t = undefined as unknown as TestPayload // afterAll: already done
    await destroying
    expect(order).toEqual(['second (1 tag)', 'first (1 tag)'])
  })
})
