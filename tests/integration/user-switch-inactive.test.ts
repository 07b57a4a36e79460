/**
 * The user switcher does not exist with APP_DEBUG=false, nor with
 * NODE_ENV=production (even with APP_DEBUG=true), not even on inkwell.test:
 * its routes answer 404 and a validly signed switch cookie changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { signSwitch, SWITCH_COOKIE } from '../../src/plugins/userSwitch/switchCookie'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { DEBUG_BASE, sessionIdOf, signedIn } from '../helpers/userSwitch'
import { createCast } from '../helpers/users'

const SECRET = 'test-secret-not-for-production'

describe.each([
  ['APP_DEBUG=false', { APP_DEBUG: 'false' }],
  ['NODE_ENV=production (even with APP_DEBUG=true)', { APP_DEBUG: 'true', NODE_ENV: 'production' }],
])('the user switcher with %s', (_label, env) => {
  let t: TestPayload
  let cast: Awaited<ReturnType<typeof createCast>>

  beforeAll(async () => {
    t = await createTestPayload({ ...env, BASE_URL: DEBUG_BASE, PAYLOAD_SECRET: SECRET })
    cast = await createCast(t.payload)
  })
  afterAll(async () => {
    await t?.destroy()
  })

  it('answers 404 on every route, to the site owner on inkwell.test', async () => {
    const b = await signedIn(t.payload, t.databaseName, 'owner@example.test')
    expect((await b.request('/api/user-switch')).status).toBe(404)
    expect((await b.request('/api/user-switch', { json: { user: cast.reader.id } })).status).toBe(404)
    expect((await b.request('/api/user-switch/back', { json: {} })).status).toBe(404)
    expect(b.cookies.has(SWITCH_COOKIE)).toBe(false)
  })

  it('ignores a validly signed switch cookie', async () => {
    const b = await signedIn(t.payload, t.databaseName, 'owner@example.test')
    b.cookies.set(SWITCH_COOKIE, signSwitch(SECRET, { ownerId: cast.owner.id, sid: sessionIdOf(b), targetId: cast.reader.id }))
    expect((await (await b.request('/api/users/me')).json()).user.id).toBe(cast.owner.id)
    const local = await t.payload.auth({
      headers: new Headers({ authorization: `JWT ${b.cookies.get('payload-token')}`, cookie: `${SWITCH_COOKIE}=${b.cookies.get(SWITCH_COOKIE)}`, host: 'inkwell.test' }),
    })
    expect(local.user?.id).toBe(cast.owner.id)
  })
})
