/**
 * Issue 9, item 4: the authentication fields Payload stores on users can be
 * neither filtered nor sorted on — directly or through a relationship path —
 * by anyone without overrideAccess, over REST and GraphQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'
import { Browser } from './accounts-client'
import { graphqlRequest } from './graphql-client'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>
const tokens: Record<string, string> = {}

const HIDDEN = ['sessions.id', 'sessions.createdAt', '_verified', 'loginAttempts', 'lockUntil', 'resetPasswordToken', 'resetPasswordExpiration', '_verificationToken', 'salt', 'hash']

beforeAll(async () => {
  t = await createTestPayload()
  cast = await createCast(t.payload)
  for (const who of ['reader', 'owner'] as const) {
    const { token } = await t.payload.login({ collection: 'users', data: { email: `${who}@example.test`, password: PASSWORD } })
    tokens[who] = token!
  }
  await t.payload.create({
    collection: 'articles',
    data: { title: 'By the owner', format: 'markdown', markdown: 'x', status: 'published', author: cast.owner.id },
  })
})
afterAll(() => t?.destroy())

const visitors = [
  ['an anonymous visitor', () => ({})],
  ['a reader', () => ({ authorization: `JWT ${tokens.reader}` })],
  ['the site owner', () => ({ authorization: `JWT ${tokens.owner}` })],
] as const

function get(path: string, headers: Record<string, string>) {
  return new Browser(t.payload, t.databaseName).request(path, { headers })
}

describe.each(visitors)('for %s', (_who, headers) => {
  it.each(HIDDEN)('filtering users or articles on %s answers 400 naming the path', async (field) => {
    for (const path of [`/api/users?where[${field}][exists]=true`, `/api/articles?where[author.${field}][exists]=true`]) {
      const reply = await get(path, headers())
      expect(reply.status, path).toBe(400)
      expect(JSON.stringify(await reply.json())).toMatch(/cannot be queried/)
    }
  })

  it.each(HIDDEN.filter((f) => !f.startsWith('sessions')))('sorting users or articles on %s answers 400', async (field) => {
    for (const path of [`/api/users?sort=${field}`, `/api/articles?sort=-author.${field}`]) {
      expect((await get(path, headers())).status, path).toBe(400)
    }
  })

  it('cannot recover a session id one character at a time', async () => {
    // The attack: if "ids starting with X" matched, X is the id's first character.
    const { docs } = await t.payload.find({ collection: 'users', where: { id: { equals: cast.owner.id } }, showHiddenFields: true })
    const sessionId = (docs[0] as { sessions?: { id: string }[] }).sessions![0]!.id
    for (const prefix of [sessionId.slice(0, 1), 'zz-not-a-prefix']) {
      const reply = await get(`/api/articles?where[author.sessions.id][like]=${prefix}`, headers())
      expect(reply.status).toBe(400)
    }
  })

  it('GraphQL refuses the same filters', async () => {
    const result = await graphqlRequest(t, '{ Users(where: { loginAttempts: { exists: true } }) { docs { id } } }', headers())
    expect(result.errors?.[0]?.message).toBeTruthy()
    expect(result.data?.Users ?? null).toBeNull()
    const sorted = await graphqlRequest(t, '{ Articles(sort: "author.lockUntil") { docs { id } } }', headers())
    expect(sorted.errors?.[0]?.message).toMatch(/cannot be queried/)
  })
})

describe('the application itself', () => {
  it('still signs people in, and still reads the fields with overrideAccess', async () => {
    const reply = await new Browser(t.payload, t.databaseName).request('/api/users/login', { json: { email: 'reader@example.test', password: PASSWORD } })
    expect(reply.status).toBe(200)
    const found = await t.payload.find({ collection: 'users', where: { 'sessions.id': { exists: true } }, overrideAccess: true })
    expect(found.totalDocs).toBeGreaterThan(0)
  })
})
