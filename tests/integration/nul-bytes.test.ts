/**
 * A NUL in a query (issue 26): PostgreSQL text cannot hold one, and a `where`
 * naming it failed in the database as a 500. Every path answers 400.
 * (The one-origin server refuses `%00` in any path or query before routing:
 * tests/unit/nulBytes.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { graphqlRequest } from './graphql-client'

let t: TestPayload

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  await t.payload.create({ collection: 'tags', data: { name: 'Postgres' } })
})
afterAll(async () => {
  await t?.destroy()
})

describe('a NUL in a query', () => {
  it.each([
    '/api/articles?where[title][equals]=%00',
    '/api/tags?where[slug][equals]=%00',
    '/api/categories?where[slug][equals]=%00',
    '/api/articles?where[title][like]=a%00b',
    '/api/tags?where[or][0][slug][in][0]=x&where[or][0][slug][in][1]=%00',
    '/api/articles/count?where[title][equals]=%00',
  ])('answers 400 over REST: %s', async (path) => {
    const answer = await new Browser(t.payload, t.databaseName).request(path)
    expect(answer.status, await answer.text()).toBe(400)
    expect((await answer.json()).errors[0].message).toMatch(/NUL/)
  })

  it('answers 400 through GraphQL and the Local API', async () => {
    const gql = await graphqlRequest(t, '{ Tags(where: { slug: { equals: "\\u0000" } }) { docs { id } } }')
    expect(JSON.stringify(gql)).toMatch(/NUL/)
    await expect(t.payload.find({ collection: 'tags', where: { slug: { equals: '\u0000' } } })).rejects.toMatchObject({ status: 400 })
  })

  it('still finds what a query without NUL names', async () => {
    const answer = await new Browser(t.payload, t.databaseName).request('/api/tags?where[slug][equals]=postgres')
    expect(answer.status).toBe(200)
    expect((await answer.json()).docs).toHaveLength(1)
  })
})
