/**
 * Sign-in through all seven providers and the generic OpenID Connect one,
 * against real servers on loopback (oidc-provider, @node-oauth/oauth2-server),
 * through the same functions the /login/<provider> route handlers call.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import OAuth2Strategy from 'passport-oauth2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { query } from '../../src/lib/pool'
import { RATE_LIMITS } from '../../src/lib/rateLimit'
import { importProviderAvatar } from '../../src/plugins/oauth/avatar'
import { saveAttempt } from '../../src/plugins/oauth/attempts'
import { classify, finishSignIn, startSignIn, unlinkProvider } from '../../src/plugins/oauth/flow'
import { oauthErrorMessage } from '../../src/plugins/oauth/messages'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser, validUser } from '../helpers/restClient'
import { graphqlRequest } from './graphql-client'
import { startOidcServer, startPlainOAuthServer, type OidcServer, type PlainOAuthServer, type TestPerson } from '../helpers/oauthServers'

const BASE = 'http://localhost:3000'
const PLAIN = ['github', 'bitbucket', 'facebook', 'twitter'] as const
const OIDC = ['google', 'gitlab', 'linkedin', 'oidc'] as const
type ProviderId = (typeof PLAIN)[number] | (typeof OIDC)[number]
const callback = (p: string) => `${BASE}/login/${p}/callback`

let t: TestPayload
let plain: PlainOAuthServer
const oidc = {} as Record<(typeof OIDC)[number], OidcServer>
const logged: string[] = []

let counter = 0
/** A new person known to every test provider (each provider has its own directory). */
function person(extra: Partial<TestPerson> = {}): TestPerson {
  counter += 1
  const p = { sub: String(1000 + counter), email: `person${counter}@example.test`, emailVerified: true, name: `Person ${counter}`, ...extra }
  plain.people.set(p.sub, p)
  for (const server of Object.values(oidc)) server.people.set(p.sub, p)
  return p
}

/** The browser's side of the site: cookies, and the three route functions. */
class SiteBrowser {
  cookies = new Map<string, string>()
  // An address of its own, as a person's browser has: starting a sign-in is limited per address.
  ip = `10.2.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`
  async request(path: string, { method = 'GET', site = 'same-origin' }: { method?: string; site?: string } = {}): Promise<Response> {
    const headers = new Headers({ 'sec-fetch-site': site, 'x-forwarded-for': this.ip })
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '))
    if (method === 'POST') headers.set('origin', site === 'same-origin' ? BASE : 'https://evil.test')
    const request = new Request(BASE + path, { method, headers })
    const [, , provider, action] = new URL(request.url).pathname.split('/')
    const response =
      action === 'callback'
        ? await finishSignIn(t.payload, request, provider!)
        : action === 'unlink'
          ? await unlinkProvider(t.payload, request, provider!)
          : await startSignIn(t.payload, request, provider!)
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';')
      const name = pair!.slice(0, pair!.indexOf('='))
      const value = pair!.slice(pair!.indexOf('=') + 1)
      if (!value || attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()))) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }
  async user() {
    const token = this.cookies.get('payload-token')
    if (!token) return null
    const { user } = await t.payload.auth({ headers: new Headers({ cookie: `payload-token=${token}`, 'sec-fetch-site': 'same-origin' }) })
    return user
  }
}

/** The browser at the provider: follows redirects and fills its login and consent forms, until it is sent back to the site. */
async function throughProvider(start: string, answers: Record<string, string>): Promise<string> {
  const jar = new Map<string, string>()
  let url = start
  let method = 'GET'
  let body: URLSearchParams | undefined
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(BASE)) return url
    const response = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    })
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0]!
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1))
    }
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location')!, url).href
      method = 'GET'
      body = undefined
      continue
    }
    const html = await response.text()
    const form = html.match(/<form[^>]*action="([^"]*)"/)
    if (!form) throw new Error(`The provider answered ${response.status} without a form: ${html.slice(0, 300)}`)
    body = new URLSearchParams()
    for (const input of html.match(/<input[^>]*>/g) ?? []) {
      const name = input.match(/name="([^"]*)"/)?.[1]
      if (!name) continue
      const value = answers[name] ?? input.match(/value="([^"]*)"/)?.[1] ?? ''
      body.set(name, value.replaceAll('&amp;', '&').replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))))
    }
    if (answers.decision) body.set('decision', answers.decision)
    url = new URL(form[1]!.replaceAll('&amp;', '&'), url).href
    method = 'POST'
  }
  throw new Error('Too many steps at the provider')
}

const answersFor = (p: TestPerson, decision = 'allow') => ({ login: p.sub, password: 'secret', username: p.sub, decision })

/** Starts at /login/<provider>, goes through the provider, and comes back: the callback path (not yet followed). */
async function toCallback(site: SiteBrowser, provider: ProviderId, who: TestPerson, { next = '', decision = 'allow' } = {}): Promise<string> {
  const start = await site.request(`/login/${provider}${next ? `?next=${encodeURIComponent(next)}` : ''}`)
  expect(start.status).toBe(303)
  const back = await throughProvider(start.headers.get('location')!, answersFor(who, decision))
  return back.slice(BASE.length)
}

async function signIn(provider: ProviderId, who: TestPerson, options: { next?: string; site?: SiteBrowser } = {}) {
  const site = options.site ?? new SiteBrowser()
  const response = await site.request(await toCallback(site, provider, who, options))
  return { site, response, location: response.headers.get('location') ?? '' }
}

const errorOf = (location: string) => new URL(location, BASE).searchParams.get('oauth_error')

async function identitiesOf(userId: number) {
  const { docs } = await t.payload.find({ collection: 'oauth-identities', where: { user: { equals: userId } }, overrideAccess: true, depth: 0 })
  return docs
}
const userCount = async () => (await t.payload.count({ collection: 'users', overrideAccess: true })).totalDocs

beforeAll(async () => {
  plain = await startPlainOAuthServer({ clients: PLAIN.map((p) => ({ id: `${p}-client`, redirectUri: callback(p) })) })
  oidc.google = await startOidcServer({ clientId: 'google-client', redirectUri: callback('google'), idTokenCarriesEmail: true })
  oidc.gitlab = await startOidcServer({ clientId: 'gitlab-client', redirectUri: callback('gitlab') })
  oidc.linkedin = await startOidcServer({ clientId: 'linkedin-client', redirectUri: callback('linkedin') })
  oidc.oidc = await startOidcServer({ clientId: 'oidc-client', redirectUri: callback('oidc') })
  // The test providers (and their profile pictures) live on loopback, which outbound requests refuse unless allowed.
  const env: Record<string, string> = { OAUTH_ALLOWED_PROVIDERS: [...PLAIN, ...OIDC].join(','), OAUTH_TIMEOUT_MS: '4000', OUTBOUND_ALLOW_PRIVATE: 'true' }
  for (const p of PLAIN) {
    const P = p.toUpperCase()
    Object.assign(env, {
      [`${P}_CLIENT_ID`]: `${p}-client`,
      [`${P}_CLIENT_SECRET`]: plain.clients.get(`${p}-client`)!.secret,
      [`${P}_AUTHORIZATION_URL`]: `${plain.url}/authorize`,
      [`${P}_TOKEN_URL`]: `${plain.url}/token`,
      [`${P}_API_URL`]: `${plain.url}/${p}`,
    })
  }
  for (const p of OIDC) {
    const P = p.toUpperCase()
    Object.assign(env, { [`${P}_CLIENT_ID`]: oidc[p].client.id, [`${P}_CLIENT_SECRET`]: oidc[p].client.secret, [`${P}_ISSUER`]: oidc[p].issuer })
  }
  t = await createTestPayload(env)
  // Every log line, to check that no code or token ever reaches one.
  for (const level of ['info', 'warn', 'error'] as const) {
    const original = t.payload.logger[level].bind(t.payload.logger)
    t.payload.logger[level] = ((...args: unknown[]) => {
      logged.push(JSON.stringify(args))
      return (original as (...a: unknown[]) => void)(...args)
    }) as never
  }
}, 120_000)

afterAll(async () => {
  await t?.destroy()
  await plain?.close()
  for (const server of Object.values(oidc)) await server.close()
})

describe('first sign-in creates the account, with the registration role rule', () => {
  it('gives the first user (through GitHub) the site-owner role, the second administrator, then the default', async () => {
    const roles: string[] = []
    for (const provider of ['github', 'google', 'gitlab'] as const) {
      const who = person({ picture: 'https://avatars.example.test/a.png' })
      const { site, location, response } = await signIn(provider, who)
      expect(response.status).toBe(303)
      expect(response.headers.get('referrer-policy')).toBe('no-referrer')
      expect(location).toBe('/profile?welcome=1')
      const user = await site.user()
      expect(user).toMatchObject({ email: who.email, name: who.name })
      const full = await t.payload.findByID({ collection: 'users', id: user!.id, depth: 1, overrideAccess: true })
      roles.push(...(full.roles ?? []).map((r) => (typeof r === 'object' ? r.slug : String(r))))
      expect(await identitiesOf(user!.id as number)).toMatchObject([{ provider, subject: who.sub, emailVerified: true }])
    }
    expect(roles).toEqual(['site-owner', 'administrator', 'reader'])
  })

  it('takes the name and the profile picture from the provider', async () => {
    const who = person({ name: 'Pictured Person', picture: `${plain.url}/avatar.png` })
    const { site } = await signIn('github', who)
    const user = await t.payload.findByID({ collection: 'users', id: (await site.user())!.id, depth: 1, overrideAccess: true })
    expect(user.name).toBe('Pictured Person')
    expect(user.avatar).toMatchObject({ mimeType: 'image/png', alt: 'Avatar of Pictured Person' })
  })

  it.each([...PLAIN, ...OIDC])('signs in with %s, and the second time into the same account', async (provider) => {
    const who = person()
    const first = await signIn(provider, who, { next: '/articles?page=2' })
    expect(first.location).toBe('/articles?page=2')
    const user = await first.site.user()
    expect(user?.email).toBe(who.email)
    const before = await userCount()
    const again = await signIn(provider, who)
    expect((await again.site.user())?.id).toBe(user!.id)
    expect(await userCount()).toBe(before)
    // The account has no password: a password login cannot succeed, whatever is tried.
    const password = await new Browser(t.payload, t.databaseName).login(who.email!, 'secret')
    expect(password.status).toBe(401)
  })

  it('returns only to a path on this site after sign-in', async () => {
    const { location } = await signIn('github', person(), { next: 'https://evil.test/' })
    expect(location).toBe('/profile?welcome=1')
  })

  it('answers 404 for an unknown provider or one spelled differently', async () => {
    for (const id of ['myspace', 'GitHub', 'github ']) {
      expect((await new SiteBrowser().request(`/login/${encodeURIComponent(id)}`)).status).toBe(404)
      expect((await new SiteBrowser().request(`/login/${encodeURIComponent(id)}/callback?code=x&state=y`)).status).toBe(404)
    }
  })
})

describe('state, code and tokens (RFC 9700)', () => {
  it('starts with PKCE S256 and a one-time state, and keeps the verifier and nonce on the server', async () => {
    const start = await new SiteBrowser().request('/login/google')
    const url = new URL(start.headers.get('location')!)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/)
    expect(url.searchParams.get('nonce')).toBeTruthy()
    expect(url.searchParams.has('code_verifier')).toBe(false)
    const cookie = start.headers.getSetCookie().find((c) => c.startsWith('inkwell-oauth='))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).toMatch(/Path=\/login\//)
  })

  it('refuses a callback without state, with an altered state, or from another browser', async () => {
    const who = person()
    const site = new SiteBrowser()
    const back = new URL(await toCallback(site, 'github', who), BASE)
    const state = back.searchParams.get('state')!
    const before = await userCount()

    const missing = new URL(back)
    missing.searchParams.delete('state')
    expect(errorOf((await site.request(missing.pathname + missing.search)).headers.get('location')!)).toBe('state')

    const altered = new URL(back)
    altered.searchParams.set('state', state.slice(0, -2) + (state.endsWith('AA') ? 'BB' : 'AA'))
    expect(errorOf((await site.request(altered.pathname + altered.search)).headers.get('location')!)).toBe('state')

    const otherBrowser = await new SiteBrowser().request(back.pathname + back.search)
    expect(errorOf(otherBrowser.headers.get('location')!)).toBe('state')
    expect(otherBrowser.headers.getSetCookie().some((c) => c.startsWith('payload-token='))).toBe(false)
    expect(await userCount()).toBe(before)
  })

  it('refuses a replayed state, and a replayed code with a fresh state', async () => {
    const who = person()
    const site = new SiteBrowser()
    const path = await toCallback(site, 'bitbucket', who)
    const cookie = site.cookies.get('inkwell-oauth')!
    expect((await site.request(path)).headers.get('location')).toBe('/profile?welcome=1')

    // The same answer again, with the same browser cookie: the state was used up.
    site.cookies.set('inkwell-oauth', cookie)
    expect(errorOf((await site.request(path)).headers.get('location')!)).toBe('state')

    // The used code with a new, valid state of this browser: the provider refuses the code.
    const fresh = new URL(await toCallback(site, 'bitbucket', who), BASE)
    const replay = new URL(fresh)
    replay.searchParams.set('code', new URL(path, BASE).searchParams.get('code')!)
    expect(errorOf((await site.request(replay.pathname + replay.search)).headers.get('location')!)).toBe('rejected')
  })

  it('refuses a code issued for one provider at another provider’s callback', async () => {
    const who = person()
    const site = new SiteBrowser()
    const githubAnswer = new URL(await toCallback(site, 'github', who), BASE)
    const facebookStart = new URL((await site.request('/login/facebook')).headers.get('location')!)
    const before = await userCount()
    const mixed = `/login/facebook/callback?code=${encodeURIComponent(githubAnswer.searchParams.get('code')!)}&state=${facebookStart.searchParams.get('state')}`
    const response = await site.request(mixed)
    expect(errorOf(response.headers.get('location')!)).toBe('rejected')
    // And GitHub's state is not accepted at Facebook's callback either.
    const crossed = `/login/facebook/callback?code=x&state=${githubAnswer.searchParams.get('state')}`
    expect(errorOf((await site.request(crossed)).headers.get('location')!)).toBe('state')
    expect(await userCount()).toBe(before)
  })

  it('never puts a code or token in a redirect or a log line', async () => {
    const site = new SiteBrowser()
    const path = await toCallback(site, 'gitlab', person())
    const response = await site.request(path)
    expect(response.headers.get('location')).not.toMatch(/code=|token=/)
    // A failing exchange is logged: by the error's name and code only.
    const failing = new SiteBrowser()
    const failingPath = await toCallback(failing, 'github', person())
    await failing.request(failingPath.replace(/code=[^&]+/, 'code=forged-code-value'))
    const lines = logged.join('\n')
    expect(lines).toMatch(/OAuth github: sign-in failed/)
    for (const secret of [new URL(path, BASE).searchParams.get('code')!, 'forged-code-value', 'access_token', 'id_token', 'eyJ']) {
      expect(lines).not.toContain(secret)
    }
  })
})

describe('ID tokens (OpenID Connect)', () => {
  it.each([
    ['wrong-iss', 'oidc'],
    ['wrong-aud', 'google'],
    ['bad-signature', 'linkedin'],
  ] as const)('refuses an ID token with a %s (%s), and creates nothing', async (how, provider) => {
    const before = await userCount()
    oidc[provider].misbehave = how
    try {
      const { site, location } = await signIn(provider, person())
      expect(errorOf(location)).toBe('id_token')
      expect(oauthErrorMessage('id_token', provider)).toMatch(/could not be verified/)
      expect(await site.user()).toBeNull()
    } finally {
      oidc[provider].misbehave = 'none'
    }
    expect(await userCount()).toBe(before)
  })
})

describe('accounts', () => {
  it('never merges a provider identity into an existing account with the same e-mail, verified or not', async () => {
    const email = `taken${Date.now()}@example.test`
    expect((await new Browser(t.payload, t.databaseName).register(validUser(email))).status).toBe(201)
    const before = await userCount()
    for (const [provider, verified] of [['google', true], ['gitlab', false], ['oidc', false]] as const) {
      const { site, location } = await signIn(provider, person({ email, emailVerified: verified }))
      expect(errorOf(location)).toBe('email_in_use')
      expect(await site.user()).toBeNull()
    }
    expect(await userCount()).toBe(before)
    const { totalDocs } = await t.payload.count({ collection: 'oauth-identities', where: { email: { equals: email } }, overrideAccess: true })
    expect(totalDocs).toBe(0)
  })

  it('creates an account from an unverified address only as a new one, marked unverified at the identity', async () => {
    const who = person({ emailVerified: false })
    const { site } = await signIn('gitlab', who)
    const user = await site.user()
    expect(user?.email).toBe(who.email)
    expect(await identitiesOf(user!.id as number)).toMatchObject([{ emailVerified: false }])
  })

  it('explains an identity without an e-mail address', async () => {
    const { location } = await signIn('twitter', person({ emailVerified: false }))
    expect(errorOf(location)).toBe('no_email')
  })

  it('links a provider from the profile, and unlinks it while a password remains', async () => {
    const email = `linker${Date.now()}@example.test`
    const rest = new Browser(t.payload, t.databaseName)
    expect((await rest.register(validUser(email))).status).toBe(201)
    const site = new SiteBrowser()
    site.cookies.set('payload-token', rest.cookies.get('payload-token')!)
    const me = (await site.user())!

    // Another site cannot start a link.
    expect((await site.request('/login/gitlab?intent=link', { site: 'cross-site' })).status).toBe(403)

    const who = person({ email: `other-address${counter}@example.test` })
    const start = await site.request('/login/gitlab?intent=link')
    expect(start.status).toBe(303)
    const back = await throughProvider(start.headers.get('location')!, answersFor(who))
    const done = await site.request(back.slice(BASE.length))
    expect(done.headers.get('location')).toBe('/profile?oauth=linked&provider=gitlab')
    expect(await identitiesOf(me.id as number)).toMatchObject([{ provider: 'gitlab', subject: who.sub }])

    // Now the GitLab account signs in to this account.
    expect((await (await signIn('gitlab', who)).site.user())?.id).toBe(me.id)

    // The same GitLab account cannot be linked to someone else.
    const other = new Browser(t.payload, t.databaseName)
    expect((await other.register(validUser(`second-${email}`))).status).toBe(201)
    const otherSite = new SiteBrowser()
    otherSite.cookies.set('payload-token', other.cookies.get('payload-token')!)
    const otherStart = await otherSite.request('/login/gitlab?intent=link')
    const otherBack = await throughProvider(otherStart.headers.get('location')!, answersFor(who))
    expect(errorOf((await otherSite.request(otherBack.slice(BASE.length))).headers.get('location')!)).toBe('identity_taken')

    const unlinked = await site.request('/login/gitlab/unlink', { method: 'POST' })
    expect(unlinked.headers.get('location')).toBe('/profile?oauth=unlinked&provider=gitlab')
    expect(await identitiesOf(me.id as number)).toEqual([])
  })

  it('keeps the last way to sign in, on the site, over REST and through the Local API', async () => {
    const who = person()
    const { site } = await signIn('facebook', who)
    const user = (await site.user())!
    const [identity] = await identitiesOf(user.id as number)

    expect((await site.request('/login/facebook/unlink', { method: 'POST', site: 'cross-site' })).status).toBe(403)
    const refused = await site.request('/login/facebook/unlink', { method: 'POST' })
    expect(errorOf(refused.headers.get('location')!)).toBe('last_method')

    const rest = new Browser(t.payload, t.databaseName)
    rest.cookies.set('payload-token', site.cookies.get('payload-token')!)
    const restDelete = await rest.request(`/api/oauth-identities/${identity!.id}`, { method: 'DELETE' })
    expect(restDelete.status).toBe(400)
    expect(JSON.stringify(await restDelete.json())).toMatch(/only way to sign in/)

    const asUser = { authorization: `JWT ${site.cookies.get('payload-token')}` }
    const gqlDelete = await graphqlRequest(t, `mutation { deleteOAuthIdentity(id: ${identity!.id}) { id } }`, asUser)
    expect(JSON.stringify(gqlDelete.errors)).toMatch(/invalid: provider|only way to sign in/)
    const gqlCreate = await graphqlRequest(t, `mutation { createOAuthIdentity(data: { user: ${user.id}, provider: "gitlab", subject: "forged" }) { id } }`, asUser)
    expect(JSON.stringify(gqlCreate.errors)).toMatch(/not allowed|Forbidden/i)

    await expect(t.payload.delete({ collection: 'oauth-identities', id: identity!.id, overrideAccess: true })).rejects.toMatchObject({
      data: { errors: [{ path: 'provider', message: expect.stringMatching(/only way to sign in/) }] },
    })
    expect(await identitiesOf(user.id as number)).toHaveLength(1)

    // With a second provider linked, the first may go.
    const start = await site.request('/login/github?intent=link')
    const back = await throughProvider(start.headers.get('location')!, answersFor(who))
    expect((await site.request(back.slice(BASE.length))).headers.get('location')).toBe('/profile?oauth=linked&provider=github')
    expect((await site.request('/login/facebook/unlink', { method: 'POST' })).headers.get('location')).toBe('/profile?oauth=unlinked&provider=facebook')
  })

  it('lets nobody but the owner read identities, and nobody create or change them over REST', async () => {
    const { site } = await signIn('github', person())
    const stranger = await signIn('github', person())
    const rest = new Browser(t.payload, t.databaseName)
    rest.cookies.set('payload-token', stranger.site.cookies.get('payload-token')!)
    const mine = (await site.user())!
    const list = await (await rest.request(`/api/oauth-identities?where[user][equals]=${mine.id}`)).json()
    expect(list.docs).toEqual([])
    const create = await rest.request('/api/oauth-identities', { json: { user: (await stranger.site.user())!.id, provider: 'github', subject: 'forged' } })
    expect(create.status).toBe(403)
    const anonymous = await new Browser(t.payload, t.databaseName).request('/api/oauth-identities')
    expect((await anonymous.json()).docs ?? []).toEqual([])
  })
})

describe('provider failures end on the login page with a message, no session, nothing created', () => {
  it('explains a denial at the provider', async () => {
    const before = await userCount()
    const site = new SiteBrowser()
    const response = await site.request(await toCallback(site, 'github', person(), { decision: 'deny' }))
    expect(response.headers.get('location')).toBe('/login?oauth_error=denied&provider=github')
    expect(await site.user()).toBeNull()
    expect(await userCount()).toBe(before)
  })

  it('explains an error page of the provider', async () => {
    plain.misbehave = 'server-error'
    try {
      const { location } = await signIn('bitbucket', person())
      expect(errorOf(location)).toBe('provider')
    } finally {
      plain.misbehave = 'none'
    }
  })

  it.each([
    ['hang', 'github', 'timeout'],
    ['garbage', 'twitter', 'garbage'],
    ['hang', 'google', 'timeout'],
    ['garbage', 'gitlab', 'garbage'],
  ] as const)('a token endpoint that does "%s" (%s) → %s', async (how, provider, code) => {
    const before = await userCount()
    const server = (PLAIN as readonly string[]).includes(provider) ? plain : oidc[provider as (typeof OIDC)[number]]
    const site = new SiteBrowser()
    const path = await toCallback(site, provider, person())
    server.misbehave = how
    try {
      const response = await site.request(path)
      expect(errorOf(response.headers.get('location')!)).toBe(code)
      expect(response.headers.getSetCookie().some((c) => c.startsWith('payload-token='))).toBe(false)
    } finally {
      server.misbehave = 'none'
    }
    expect(await userCount()).toBe(before)
  })

  it('calls a callback with neither a code nor an error garbage', async () => {
    const site = new SiteBrowser()
    await site.request('/login/github')
    expect(errorOf((await site.request('/login/github/callback?state=abc&foo=bar')).headers.get('location')!)).toBe('garbage')
  })
})

describe('issue 27: outbound requests and sign-in hardening', () => {
  /** Signs in with the provider told to misbehave for the token exchange (and what follows it) only. */
  async function withMisbehaviour(provider: ProviderId, how: Parameters<typeof setMisbehaviour>[1]) {
    const site = new SiteBrowser()
    const path = await toCallback(site, provider, person())
    const server = serverOf(provider)
    server.sent = 0
    setMisbehaviour(provider, how)
    try {
      const started = Date.now()
      const response = await site.request(path)
      return { site, response, code: errorOf(response.headers.get('location')!), ms: Date.now() - started, sent: server.sent }
    } finally {
      setMisbehaviour(provider, 'none')
    }
  }
  const serverOf = (provider: ProviderId) => ((PLAIN as readonly string[]).includes(provider) ? plain : oidc[provider as (typeof OIDC)[number]])
  function setMisbehaviour(provider: ProviderId, how: PlainOAuthServer['misbehave']) {
    serverOf(provider).misbehave = how
  }

  it('item 8: never opens a connection to a private address for a provider’s avatar URL', async () => {
    let connections = 0
    const internal = http.createServer((_req, res) => res.end('internal'))
    internal.on('connection', () => (connections += 1))
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve))
    const port = (internal.address() as AddressInfo).port
    try {
      const { site } = await signIn('github', person())
      const user = (await site.user())!
      for (const url of [`https://127.0.0.1:${port}/x.png`, `https://localhost:${port}/x.png`, `https://[::ffff:127.0.0.1]:${port}/x.png`, 'https://169.254.169.254/latest/meta-data/']) {
        await importProviderAvatar(t.payload, { userId: user.id as number, name: 'x', url, providerOrigins: [], timeoutMs: 2000, maxBytes: 1024 * 1024, outbound: { allowPrivate: false } })
      }
      expect(connections).toBe(0)
      const full = await t.payload.findByID({ collection: 'users', id: user.id, depth: 0, overrideAccess: true })
      expect(full.avatar ?? null).toBeNull()
    } finally {
      internal.closeAllConnections()
      await new Promise<void>((resolve) => internal.close(() => resolve()))
    }
  })

  it('item 9: refuses an ID token issued an hour ahead, and accepts one within the clock skew', async () => {
    const before = await userCount()
    const ahead = await withMisbehaviour('oidc', 'iat-future')
    expect(ahead.code).toBe('id_token')
    expect(await ahead.site.user()).toBeNull()
    expect(await userCount()).toBe(before)
    const skewed = await withMisbehaviour('oidc', 'iat-skew')
    expect(skewed.response.headers.get('location')).toBe('/profile?welcome=1')
  })

  it('item 10: refuses an ID token with an extra untrusted audience even when azp is our client', async () => {
    const before = await userCount()
    const { code, site } = await withMisbehaviour('google', 'extra-aud')
    expect(code).toBe('id_token')
    expect(await site.user()).toBeNull()
    expect(await userCount()).toBe(before)
  })

  it.each([
    ['token-type-mac', 'github'],
    ['token-type-html', 'facebook'],
    ['token-type-mac', 'gitlab'],
    ['token-type-html', 'google'],
  ] as const)('item 11: refuses a token response of type %s (%s)', async (how, provider) => {
    const before = await userCount()
    const { code, site } = await withMisbehaviour(provider, how)
    expect(code).toBe('garbage')
    expect(await site.user()).toBeNull()
    expect(await userCount()).toBe(before)
  })

  it.each([
    ['endless-token', 'github'],
    ['endless-token', 'google'],
    ['endless-userinfo', 'github'],
    ['endless-userinfo', 'gitlab'],
  ] as const)('item 12: stops reading an oversized answer (%s, %s) at its limit, while streaming', async (how, provider) => {
    const before = await userCount()
    const { code, site, sent } = await withMisbehaviour(provider, how)
    expect(code).toBe('garbage')
    // The provider was cut off after the cap (plus what socket buffers hold), not read to its 50 MB end.
    expect(sent).toBeGreaterThan(0)
    expect(sent).toBeLessThan(8 * 1024 * 1024)
    expect(await site.user()).toBeNull()
    expect(await userCount()).toBe(before)
  })

  it('item 14: classifies provider errors by class and code, not by the class names a bundler minifies', async () => {
    const classes = [OAuth2Strategy.TokenError, OAuth2Strategy.AuthorizationError, OAuth2Strategy.InternalOAuthError]
    const names = classes.map((c) => c.name)
    // What the production bundle does to passport-oauth2's constructors (its errors take `this.constructor.name`).
    classes.forEach((c, i) => Object.defineProperty(c, 'name', { value: ['a', 'b', 'c'][i], configurable: true }))
    try {
      expect(new OAuth2Strategy.TokenError('x', 'invalid_grant').name).toBe('a')
      expect(classify(new OAuth2Strategy.TokenError('used code', 'invalid_grant', undefined, 400))).toBe('rejected')
      expect(classify(new OAuth2Strategy.AuthorizationError('x', 'server_error', undefined, 500))).toBe('provider')
      expect(classify(new OAuth2Strategy.InternalOAuthError('Failed to obtain access token', { statusCode: 401, data: 'no' }))).toBe('rejected')
      // And through the whole flow: a code the provider already used is refused by it.
      const who = person()
      const site = new SiteBrowser()
      const path = await toCallback(site, 'bitbucket', who)
      expect((await site.request(path)).headers.get('location')).toBe('/profile?welcome=1')
      const fresh = new URL(await toCallback(site, 'bitbucket', who), BASE)
      fresh.searchParams.set('code', new URL(path, BASE).searchParams.get('code')!)
      expect(errorOf((await site.request(fresh.pathname + fresh.search)).headers.get('location')!)).toBe('rejected')
    } finally {
      classes.forEach((c, i) => Object.defineProperty(c, 'name', { value: names[i], configurable: true }))
    }
  })

  it('item 15: refuses an answer that names another issuer, or none from an issuer that always names itself (RFC 9207)', async () => {
    const before = await userCount()
    for (const change of ['another', 'missing'] as const) {
      const site = new SiteBrowser()
      const back = new URL(await toCallback(site, 'google', person()), BASE)
      expect(back.searchParams.get('iss')).toBe(oidc.google.issuer)
      if (change === 'another') back.searchParams.set('iss', oidc.gitlab.issuer)
      else back.searchParams.delete('iss')
      const response = await site.request(back.pathname + back.search)
      expect(errorOf(response.headers.get('location')!), change).toBe('wrong_issuer')
      expect(oauthErrorMessage('wrong_issuer', 'google')).toMatch(/did not come from Google/)
      expect(await site.user()).toBeNull()
      // The attempt is used up: the same answer with the right issuer is not taken afterwards.
      back.searchParams.set('iss', oidc.google.issuer)
      expect(errorOf((await site.request(back.pathname + back.search)).headers.get('location')!)).toBe('state')
    }
    expect(await userCount()).toBe(before)
  })
})

describe('starting a sign-in is limited (issue 27 item 5)', () => {
  const stored = async () => Number((await query<{ n: string }>(t.payload, 'select count(*) as n from oauth_sign_in_attempts'))[0]!.n)

  it('per address: beyond the limit a start answers 429 with a message and stores nothing', async () => {
    const site = new SiteBrowser()
    const before = await stored()
    const { points } = RATE_LIMITS.oauthStart
    for (let i = 0; i < points; i++) expect((await site.request('/login/github')).status).toBe(303)
    expect(await stored()).toBe(before + points)
    const refused = await site.request('/login/github')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('cache-control')).toBe('no-store')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.text()).toMatch(/^Too many sign-ins started from your address\. Try again in \d+ minute/)
    expect(await stored()).toBe(before + points)
    // Another address still starts one.
    expect((await new SiteBrowser().request('/login/github')).status).toBe(303)
  })

  it('the store of sign-ins in flight is bounded: the oldest go first', async () => {
    for (let i = 0; i < 8; i++) await saveAttempt(t.payload, { state: `bounded-${i}`, provider: 'github', next: '/' }, `browser-${i}`, 5)
    expect(await stored()).toBe(5)
    const states = (await query<{ state: string }>(t.payload, 'select state from oauth_sign_in_attempts')).map((r) => r.state)
    expect(states).toContain('bounded-7')
  })
})
