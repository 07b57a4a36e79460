/** Issue 9, item 12: GraphQL documents are limited in depth, aliases and estimated cost. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'
import { graphqlRequest } from './graphql-client'

let t: TestPayload

beforeAll(async () => {
  t = await createTestPayload({ GRAPHQL_MAX_DEPTH: '6', GRAPHQL_MAX_ALIASES: '5', GRAPHQL_MAX_COMPLEXITY: '60' })
  const { author } = await createCast(t.payload)
  await t.payload.create({ collection: 'articles', data: { title: 'Hello', format: 'markdown', markdown: 'x', status: 'published', author: author.id } })
})
afterAll(() => t?.destroy())

/** Articles → author → avatar → owner → avatar → … : each level a relationship, i.e. more queries. */
function nested(levels: number): string {
  let query = 'id'
  for (let i = 0; i < levels; i++) query = `author { avatar { owner { ${query} } } }`
  return `{ Articles { docs { ${query} } } }`
}

describe('GraphQL limits', () => {
  it('answers an ordinary query', async () => {
    const result = await graphqlRequest(t, '{ Articles { docs { title author { name } } } }')
    expect(result.errors).toBeUndefined()
    expect(result.data?.Articles.docs[0]).toMatchObject({ title: 'Hello', author: { name: 'author' } })
  })

  it('refuses a query nested deeper than GRAPHQL_MAX_DEPTH, before running it, with a clear error', async () => {
    const result = await graphqlRequest(t, nested(3))
    expect(result.data ?? null).toBeNull()
    expect(result.errors?.[0]?.message).toMatch(/too deep: \d+ levels; the limit is 6 \(GRAPHQL_MAX_DEPTH\)/)
  })

  it('counts depth through fragments too', async () => {
    const query = `fragment A on User { avatar { owner { avatar { owner { id } } } } }
      { Articles { docs { author { ...A } } } }`
    expect((await graphqlRequest(t, query)).errors?.[0]?.message).toMatch(/too deep/)
  })

  it('refuses more aliases than GRAPHQL_MAX_ALIASES', async () => {
    const aliases = Array.from({ length: 6 }, (_, i) => `a${i}: Articles { totalDocs }`).join(' ')
    const result = await graphqlRequest(t, `{ ${aliases} }`)
    expect(result.errors?.[0]?.message).toMatch(/more than 5 aliases \(GRAPHQL_MAX_ALIASES\)/)
  })

  it('refuses a query whose estimated cost exceeds GRAPHQL_MAX_COMPLEXITY', async () => {
    // Shallow and alias-free, but wide: many relationship fields, each costed by Payload.
    const result = await graphqlRequest(t, '{ Articles { docs { author { name avatar { url } roles { slug } } category { name } tags { name } meta { image { url } } } } Replies { docs { author { name } article { title author { name } } } } Users { docs { avatar { url owner { name } } roles { permissions { slug } } } } }')
    expect(result.errors?.[0]?.message).toMatch(/complexity/i)
  })
})
