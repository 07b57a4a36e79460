/**
 * Sign-in through a provider with REGISTER_VERIFY_EMAIL=true: an address the
 * provider verified signs in at once; an unverified one creates the account
 * unconfirmed, mails the link, and signs nobody in until it is opened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { finishSignIn, startSignIn } from '../../src/plugins/oauth/flow'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { startOidcServer, type OidcServer } from '../helpers/oauthServers'

const BASE = 'http://localhost:3000'
let t: TestPayload
let idp: OidcServer

/** Site → provider (its own login and consent forms) → site, keeping the browser cookie. */
async function signIn(sub: string): Promise<Response> {
  const start = await startSignIn(t.payload, new Request(`${BASE}/login/oidc`), 'oidc')
  const browserCookie = start.headers.getSetCookie()[0]!.split(';')[0]!
  const jar = new Map<string, string>()
  let url = start.headers.get('location')!
  let init: RequestInit = {}
  while (!url.startsWith(BASE)) {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as object), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } })
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0]!
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1))
    }
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location')!, url).href
      init = {}
      continue
    }
    const html = await response.text()
    const action = html.match(/<form[^>]*action="([^"]*)"/)![1]!
    const prompt = html.match(/name="prompt" value="([^"]*)"/)![1]!
    url = new URL(action, url).href
    init = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ prompt, login: sub, password: 'x' }).toString() }
  }
  return finishSignIn(t.payload, new Request(url, { headers: { cookie: browserCookie } }), 'oidc')
}

beforeAll(async () => {
  idp = await startOidcServer({
    clientId: 'verify-client',
    redirectUri: `${BASE}/login/oidc/callback`,
    people: [
      { sub: 'proven', email: 'proven@example.test', emailVerified: true, name: 'Proven' },
      { sub: 'unproven', email: 'unproven@example.test', emailVerified: false, name: 'Unproven' },
    ],
  })
  t = await createTestPayload({
    REGISTER_VERIFY_EMAIL: 'true',
    OAUTH_ALLOWED_PROVIDERS: 'oidc',
    OIDC_CLIENT_ID: idp.client.id,
    OIDC_CLIENT_SECRET: idp.client.secret,
    OIDC_ISSUER: idp.issuer,
  })
}, 120_000)
afterAll(async () => {
  await t?.destroy()
  await idp?.close()
})

describe('REGISTER_VERIFY_EMAIL with providers', () => {
  it('signs in a provider-verified address at once', async () => {
    const response = await signIn('proven')
    expect(response.headers.get('location')).toBe('/profile?welcome=1')
    expect(response.headers.getSetCookie().some((c) => c.startsWith('payload-token='))).toBe(true)
    const { docs } = await t.payload.find({ collection: 'users', where: { email: { equals: 'proven@example.test' } }, overrideAccess: true, showHiddenFields: true })
    expect(docs[0]?._verified).toBe(true)
  })

  it('asks an unverified address to confirm by mail first, and refuses sign-in until then', async () => {
    const first = await signIn('unproven')
    expect(first.headers.get('location')).toBe('/login?oauth=verify&provider=oidc')
    expect(first.headers.getSetCookie().some((c) => c.startsWith('payload-token='))).toBe(false)
    const { docs } = await t.payload.find({ collection: 'users', where: { email: { equals: 'unproven@example.test' } }, overrideAccess: true, showHiddenFields: true })
    expect(docs[0]?._verified).toBe(false)
    const again = await signIn('unproven')
    expect(again.headers.get('location')).toBe('/login?oauth_error=unverified_account&provider=oidc')
    expect(again.headers.getSetCookie().some((c) => c.startsWith('payload-token='))).toBe(false)
  })
})
