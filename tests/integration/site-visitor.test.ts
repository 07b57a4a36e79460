/**
 * The reader site's visitor (frontend/src/lib/api/visitor.ts) is resolved by
 * Payload's auth strategies and two access functions, not payload.auth()
 * (which works out every permission for the admin): its answers must be the
 * ones payload.auth() gives, for every kind of user and credential.
 */
import { handleEndpoints } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { resolveVisitor } from '../../frontend/src/lib/api/visitor'
import { installSitePayload } from '../../src/lib/sitePayload'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  cast = await createCast(t.payload)
  installSitePayload({ payload: t.payload, rest: (request) => handleEndpoints({ config: t.payload.config, request }) })
})
afterAll(() => t?.destroy())

const page = (cookie?: string, authorization?: string) =>
  new Request('http://localhost:3000/', { headers: { ...(cookie ? { cookie } : {}), ...(authorization ? { authorization } : {}) } })

describe('the site visitor', () => {
  it('is who payload.auth() says, with the same "may write" answer, for every role', async () => {
    const emails = { owner: 'owner@example.test', admin: 'admin@example.test', author: 'author@example.test', otherAuthor: 'author2@example.test', reader: 'reader@example.test' }
    const answers: boolean[] = []
    for (const [who, email] of Object.entries(emails)) {
      const user = { ...cast[who as keyof typeof cast], email }
      const { token } = await t.payload.login({ collection: 'users', data: { email, password: PASSWORD } })
      const visitor = await resolveVisitor(page(`payload-token=${token}`))
      const { permissions } = await t.payload.auth({ headers: new Headers({ authorization: `JWT ${token}` }) })
      expect(visitor.me?.id, user.email).toBe(user.id)
      expect(visitor.canWrite, user.email).toBe(Boolean(permissions.canAccessAdmin && permissions.collections?.articles?.create))
      answers.push(visitor.canWrite)
    }
    expect(answers).toContain(true) // authors write…
    expect(answers).toContain(false) // …readers do not
  })

  it('is nobody for junk, forged or missing credentials', async () => {
    for (const [cookie, authorization] of [
      [undefined, undefined],
      ['payload-token=junk', undefined],
      [undefined, 'Bearer junk'],
      [undefined, `Bearer iwt_abcdefabcdef_${'x'.repeat(43)}`],
    ] as const) {
      expect(await resolveVisitor(page(cookie, authorization))).toEqual({ me: null, canWrite: false })
    }
  })
})
