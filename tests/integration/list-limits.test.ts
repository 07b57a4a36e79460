/**
 * Public list reads are bounded on every external path (REST and GraphQL,
 * through Payload's real request handling), while the Local API (the reader
 * site, jobs) and editors in the admin are not.
 */
import { GRAPHQL_POST } from '@payloadcms/next/routes'
import { handleEndpoints, type Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { MAX_LIST_LIMIT } from '../../hooks/capListLimit'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'

let t: TestPayload
let payload: Payload
const TAGS = MAX_LIST_LIMIT + 20

beforeAll(async () => {
  t = await createTestPayload()
  payload = t.payload
  for (let i = 0; i < TAGS; i++) await payload.create({ collection: 'tags', data: { name: `Tag ${i}` } })
})
afterAll(() => t?.destroy())

async function rest(path: string, init: RequestInit = {}) {
  const response = await handleEndpoints({ config: payload.config, request: new Request(`http://localhost:3000${path}`, init), payloadInstanceCacheKey: t.databaseName })
  return { status: response.status, body: (await response.json()) as { docs?: unknown[]; errors?: { message: string; data?: { errors?: { path: string; message: string }[] } }[] } }
}

describe('public list limits', () => {
  it('lowers a REST limit above the cap (or 0, "all") to the cap', async () => {
    for (const limit of [1000, 0]) {
      const { status, body } = await rest(`/api/tags?limit=${limit}`)
      expect(status).toBe(200)
      expect(body.docs).toHaveLength(MAX_LIST_LIMIT)
    }
    expect((await rest('/api/tags?limit=7')).body.docs).toHaveLength(7)
  })

  it('leaves the relationships Payload populates, and its own bookkeeping, alone', async () => {
    const category = await payload.create({ collection: 'categories', data: { name: 'General' } })
    const { docs: tags } = await payload.find({ collection: 'tags', limit: 3 })
    await payload.create({
      collection: 'articles',
      data: { title: 'Populated', format: 'markdown', markdown: 'x', status: 'published', category: category.id, tags: tags.map((t) => t.id) },
    })
    const { status, body } = await rest('/api/articles?depth=1&limit=5')
    expect(status).toBe(200)
    expect((body.docs?.[0] as { tags: { name: string }[] }).tags.map((t) => t.name)).toHaveLength(3)
  })

  it('refuses pagination=false over REST with 400 naming the parameter and the rule', async () => {
    const { status, body } = await rest('/api/tags?pagination=false&limit=0')
    expect(status).toBe(400)
    const field = body.errors?.[0]?.data?.errors?.[0]
    expect(field?.path).toBe('pagination')
    expect(field?.message).toMatch(/pagination=false is not available.*at most 100/)
    expect((await rest('/api/tags?pagination=false')).status).toBe(400)
    expect((await rest('/api/tags?pagination=false&limit=1000')).status).toBe(400)
  })

  it('answers pagination=false with a limit of at most 100: one bounded page, without the count', async () => {
    const { status, body } = await rest('/api/tags?pagination=false&limit=5')
    expect(status).toBe(200)
    expect(body.docs).toHaveLength(5)
  })

  it('caps GraphQL lists the same way', async () => {
    const query = async (args: string) => {
      const response = await GRAPHQL_POST(Promise.resolve(payload.config))(
        new Request('http://localhost:3000/api/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: `{ Tags(${args}) { docs { id } } }` }),
        }),
      )
      return (await response.json()) as { data?: { Tags: { docs: unknown[] } | null }; errors?: { message: string }[] }
    }
    const capped = await query('limit: 1000')
    expect(capped.data?.Tags?.docs).toHaveLength(MAX_LIST_LIMIT)
    const unbounded = await query('pagination: false')
    expect(unbounded.data?.Tags ?? null).toBeNull()
    expect(unbounded.errors?.[0]?.message).toBeTruthy()
  })

  it('leaves the Local API and editors with admin access uncapped', async () => {
    const local = await payload.find({ collection: 'tags', pagination: false, overrideAccess: false })
    expect(local.docs).toHaveLength(TAGS)
    await createCast(payload)
    const { token } = await payload.login({ collection: 'users', data: { email: 'admin@example.test', password: PASSWORD } })
    const editor = await rest('/api/tags?limit=1000', { headers: { authorization: `JWT ${token}` } })
    expect(editor.body.docs).toHaveLength(TAGS)
    // A signed-in reader is the public here.
    const { token: readerToken } = await payload.login({ collection: 'users', data: { email: 'reader@example.test', password: PASSWORD } })
    expect((await rest('/api/tags?limit=1000', { headers: { authorization: `JWT ${readerToken}` } })).body.docs).toHaveLength(MAX_LIST_LIMIT)
  })
})
