/**
 * Real identity providers on loopback, for the sign-in tests:
 *  - startOidcServer: oidc-provider (OpenID Certified) with its own login and
 *    consent pages (dev interactions), behind a thin forwarding server that can
 *    be told to tamper with ID tokens or to stop answering, for the negative cases;
 *  - startPlainOAuthServer: @node-oauth/oauth2-server (single-use codes that
 *    expire, PKCE) with a login/consent page and GitHub-, Bitbucket-, Facebook-
 *    and X-shaped user APIs.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import OAuth2Server, { Request as OAuthRequest, Response as OAuthResponse } from '@node-oauth/oauth2-server'
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT, type JWK, type KeyLike } from 'jose'
import Provider from 'oidc-provider'
import sharp from 'sharp'

export type TestPerson = { sub: string; email?: string; emailVerified?: boolean; name: string; picture?: string; password?: string }

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

function close(server: http.Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** What a test can make a provider do wrong. */
export type Misbehaviour =
  | 'none'
  | 'hang'
  | 'garbage'
  | 'wrong-iss'
  | 'wrong-aud'
  | 'bad-signature'
  | 'server-error'
  // ID tokens issued an hour ahead, or two minutes ahead (within the allowed clock skew); one also meant for another audience.
  | 'iat-future'
  | 'iat-skew'
  | 'extra-aud'
  // Token responses of another type than Bearer.
  | 'token-type-mac'
  | 'token-type-html'
  // Answers that go on and on (up to ENDLESS_BYTES): the token response, the user API or UserInfo.
  | 'endless-token'
  | 'endless-userinfo'

/** How much an "endless" answer sends at most if its reader never stops (the 50 MB answer of issue 27). */
export const ENDLESS_BYTES = 50 * 1024 * 1024

/** Streams JSON-looking bytes while the reader keeps reading, counting what was handed to the socket. */
function endless(res: http.ServerResponse, count: (bytes: number) => void): void {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.write('{"access_token":"')
  const chunk = Buffer.alloc(64 * 1024, 97)
  let sent = 0
  const pump = () => {
    while (!res.destroyed && sent < ENDLESS_BYTES) {
      sent += chunk.length
      count(chunk.length)
      if (!res.write(chunk)) return
    }
    if (!res.destroyed) res.end('"}')
  }
  res.on('drain', pump)
  pump()
}

const TOKEN_TYPES: Partial<Record<Misbehaviour, string>> = { 'token-type-mac': 'mac', 'token-type-html': '<b>weird</b>' }

export type OidcServer = {
  issuer: string
  client: { id: string; secret: string }
  people: Map<string, TestPerson>
  misbehave: Misbehaviour
  /** Bytes an endless answer handed to its socket. */
  sent: number
  close: () => Promise<void>
}

export async function startOidcServer({
  redirectUri,
  clientId,
  idTokenCarriesEmail = false,
  people = [],
}: {
  redirectUri: string
  clientId: string
  /** Google puts the e-mail in the ID token; others leave it to UserInfo (oidc-provider's conform mode). */
  idTokenCarriesEmail?: boolean
  people?: TestPerson[]
}): Promise<OidcServer> {
  const front = http.createServer()
  const port = await listen(front)
  const issuer = `http://127.0.0.1:${port}`
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' } as JWK
  const directory = new Map(people.map((p) => [p.sub, p]))
  const secret = `${clientId}-secret-${Math.random().toString(36).slice(2)}`

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: secret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: ['inkwell-test-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    conformIdTokenClaims: !idTokenCarriesEmail,
    pkce: { required: () => false },
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx: unknown, sub: string) => {
      const person = directory.get(sub)
      if (!person) return undefined
      return {
        accountId: sub,
        claims: async () => ({ sub, email: person.email, email_verified: person.emailVerified ?? false, name: person.name, picture: person.picture }),
      }
    },
  } as never)
  // Its own error pages would otherwise print stack traces into the test output.
  provider.on('server_error', () => undefined)
  const inner = http.createServer(provider.callback())
  const innerPort = await listen(inner)

  const server: OidcServer = { issuer, client: { id: clientId, secret }, people: directory, misbehave: 'none', sent: 0, close: async () => {
    await close(front)
    await close(inner)
  } }

  // The published address: forwards everything to oidc-provider, and plays the faulty provider when told to.
  front.on('request', async (req, res) => {
    if (server.misbehave === 'hang' && req.url?.startsWith('/token')) return
    if (server.misbehave === 'endless-token' && req.url?.startsWith('/token')) return endless(res, (n) => (server.sent += n))
    if (server.misbehave === 'endless-userinfo' && req.url?.startsWith('/me')) return endless(res, (n) => (server.sent += n))
    const body = await readBody(req)
    // The Host header is kept, so the addresses oidc-provider publishes are this server's.
    const upstream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const forward = http.request({ host: '127.0.0.1', port: innerPort, method: req.method, path: req.url, headers: req.headers }, resolve)
      forward.on('error', reject)
      forward.end(body)
    })
    let answer = await readBody(upstream)
    const ok = upstream.statusCode! >= 200 && upstream.statusCode! < 300
    if (req.url?.startsWith('/token') && ok) answer = await tamper(answer, server.misbehave, jwk, privateKey)
    if (req.url?.startsWith('/token') && server.misbehave === 'garbage') answer = Buffer.from('<html>Oops</html>')
    const out = { ...upstream.headers }
    delete out['content-length']
    delete out['transfer-encoding']
    delete out.connection
    res.writeHead(upstream.statusCode!, out)
    res.end(answer)
  })
  return server
}

/**
 * Re-signs the ID token with one defect: another issuer, another audience, a key the issuer never published,
 * an issue time ahead, a second audience; or changes the token type.
 */
async function tamper(answer: Buffer, how: Misbehaviour, jwk: JWK, key: KeyLike): Promise<Buffer> {
  if (TOKEN_TYPES[how]) return Buffer.from(JSON.stringify({ ...JSON.parse(answer.toString()), token_type: TOKEN_TYPES[how] }))
  if (!['wrong-iss', 'wrong-aud', 'bad-signature', 'iat-future', 'iat-skew', 'extra-aud'].includes(how)) return answer
  const body = JSON.parse(answer.toString()) as { id_token?: string }
  if (!body.id_token) return answer
  const claims = decodeJwt(body.id_token)
  const header = decodeProtectedHeader(body.id_token)
  let signingKey = key
  if (how === 'wrong-iss') claims.iss = 'http://127.0.0.1:1/someone-else'
  if (how === 'wrong-aud') claims.aud = 'another-client'
  if (how === 'bad-signature') signingKey = (await generateKeyPair('RS256')).privateKey
  const now = Math.floor(Date.now() / 1000)
  if (how === 'iat-future' || how === 'iat-skew') {
    claims.iat = now + (how === 'iat-future' ? 3600 : 120)
    claims.exp = claims.iat + 600
  }
  if (how === 'extra-aud') {
    claims.aud = [claims.aud as string, 'untrusted-client']
    claims.azp = (claims.aud as string[])[0]
  }
  body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: header.kid ?? jwk.kid }).sign(signingKey)
  return Buffer.from(JSON.stringify(body))
}

export type PlainOAuthServer = {
  url: string
  clients: Map<string, { id: string; secret: string; redirectUri: string }>
  people: Map<string, TestPerson>
  misbehave: Misbehaviour
  /** Bytes an endless answer handed to its socket. */
  sent: number
  close: () => Promise<void>
}

type Shape = 'github' | 'bitbucket' | 'facebook' | 'twitter'

/** The user API of each provider, with its own field names. */
function shapedProfile(shape: Shape, path: string, person: TestPerson): unknown {
  const verified = person.emailVerified ?? false
  switch (shape) {
    case 'github':
      if (path === '/user/emails') return person.email ? [{ email: person.email, primary: true, verified, visibility: 'private' }] : []
      if (path === '/user') return { id: Number(person.sub), login: person.name.toLowerCase().replace(/\s/g, ''), name: person.name, avatar_url: person.picture, email: null }
      return undefined
    case 'bitbucket':
      if (path === '/user/emails') return { values: person.email ? [{ email: person.email, is_primary: true, is_confirmed: verified }] : [] }
      if (path === '/user') return { uuid: `{${person.sub}}`, display_name: person.name, links: { avatar: { href: person.picture } } }
      return undefined
    case 'facebook':
      if (path.startsWith('/me')) return { id: person.sub, name: person.name, email: person.email, picture: { data: { url: person.picture } } }
      return undefined
    case 'twitter':
      if (path.startsWith('/users/me')) return { data: { id: person.sub, name: person.name, username: 'x', profile_image_url: person.picture, ...(verified && person.email ? { confirmed_email: person.email } : {}) } }
      return undefined
  }
}

function loginPage(query: URLSearchParams, error?: string): string {
  const hidden = [...query].map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join('')
  return `<!doctype html><html><head><title>Test provider sign-in</title></head><body>
<h1>Sign in to the test provider</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<p>${escapeHtml(query.get('client_id') ?? '')} asks for: ${escapeHtml(query.get('scope') ?? '')}</p>
<form method="post" action="/authorize">${hidden}
<label>Username <input name="username" id="username"></label>
<label>Password <input name="password" id="password" type="password"></label>
<button type="submit" name="decision" value="allow">Authorize</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></body></html>`
}

export async function startPlainOAuthServer({ clients, people = [] }: { clients: Array<{ id: string; redirectUri: string }>; people?: TestPerson[] }): Promise<PlainOAuthServer> {
  const directory = new Map(people.map((p) => [p.sub, p]))
  const clientMap = new Map(clients.map((c) => [c.id, { ...c, secret: `${c.id}-secret-${Math.random().toString(36).slice(2)}` }]))
  const codes = new Map<string, Record<string, unknown>>()
  const tokens = new Map<string, Record<string, unknown>>()
  const clientFor = (id: string) => {
    const c = clientMap.get(id)
    return c && { id: c.id, redirectUris: [c.redirectUri], grants: ['authorization_code'] }
  }
  const oauth = new OAuth2Server({
    model: {
      getClient: async (id: string, secret: string | null) => {
        const c = clientMap.get(id)
        if (!c || (secret !== null && secret !== undefined && secret !== c.secret)) return false
        return clientFor(id)
      },
      saveAuthorizationCode: async (code: Record<string, unknown>, client: unknown, user: unknown) => {
        const saved = { ...code, client, user }
        codes.set(code.authorizationCode as string, saved)
        return saved
      },
      getAuthorizationCode: async (code: string) => codes.get(code) ?? false,
      // Single use: the grant revokes the code before it issues a token.
      revokeAuthorizationCode: async (code: { authorizationCode: string }) => codes.delete(code.authorizationCode),
      saveToken: async (token: Record<string, unknown>, client: unknown, user: unknown) => {
        const saved = { ...token, client, user }
        tokens.set(token.accessToken as string, saved)
        return saved
      },
      getAccessToken: async (token: string) => tokens.get(token) ?? false,
      verifyScope: async () => true,
      validateScope: async (_user: unknown, _client: unknown, scope?: string[]) => scope ?? ['default'],
    } as never,
    authorizationCodeLifetime: 60,
    allowEmptyState: false,
  })

  const http_ = http.createServer()
  const port = await listen(http_)
  const server: PlainOAuthServer = { url: `http://127.0.0.1:${port}`, clients: clientMap, people: directory, misbehave: 'none', sent: 0, close: () => close(http_) }

  http_.on('request', async (req, res) => {
    const url = new URL(req.url!, server.url)
    const raw = (await readBody(req)).toString()
    const body = req.headers['content-type']?.includes('application/x-www-form-urlencoded') ? Object.fromEntries(new URLSearchParams(raw)) : {}
    const send = (status: number, headers: Record<string, string>, text: string) => {
      res.writeHead(status, headers)
      res.end(text)
    }
    const runOAuth = async (work: (r: InstanceType<typeof OAuthRequest>, s: InstanceType<typeof OAuthResponse>) => Promise<unknown>) => {
      const request = new OAuthRequest({ method: req.method!, query: Object.fromEntries(url.searchParams), headers: req.headers as Record<string, string>, body })
      const response = new OAuthResponse({ headers: {} })
      try {
        const result = await work(request, response)
        return { result, response }
      } catch (error) {
        const e = error as { code?: number; name?: string; message?: string }
        return { error: { status: e.code ?? 500, body: { error: e.name ?? 'server_error', error_description: e.message } }, response }
      }
    }

    // A profile picture, as providers host them.
    if (url.pathname === '/avatar.png') {
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } }).png().toBuffer()
      res.writeHead(200, { 'content-type': 'image/png' })
      return res.end(png)
    }
    if (url.pathname === '/authorize') {
      if (req.method === 'GET') return send(200, { 'content-type': 'text/html; charset=utf-8' }, loginPage(url.searchParams))
      const params = new URLSearchParams(body as Record<string, string>)
      const redirectUri = params.get('redirect_uri')!
      const back = (error: string) => send(302, { location: `${redirectUri}?error=${error}&state=${encodeURIComponent(params.get('state') ?? '')}` }, '')
      if (!clientFor(params.get('client_id') ?? '')?.redirectUris.includes(redirectUri)) return send(400, { 'content-type': 'text/plain' }, 'unknown client or redirect_uri')
      if (params.get('decision') === 'deny') return back('access_denied')
      if (server.misbehave === 'server-error') return back('server_error')
      const person = directory.get(params.get('username') ?? '')
      if (!person || (person.password ?? 'secret') !== params.get('password')) {
        const query = new URLSearchParams(params)
        for (const k of ['username', 'password', 'decision']) query.delete(k)
        return send(200, { 'content-type': 'text/html; charset=utf-8' }, loginPage(query, 'Wrong username or password.'))
      }
      const { response, error } = await runOAuth((r, s) => oauth.authorize(r, s, { authenticateHandler: { handle: () => ({ id: person.sub }) } }))
      if (error) return send(error.status, { 'content-type': 'application/json' }, JSON.stringify(error.body))
      return send(302, { location: response.headers!.location as string }, '')
    }

    if (url.pathname === '/token' && req.method === 'POST') {
      if (server.misbehave === 'hang') return
      if (server.misbehave === 'garbage') return send(200, { 'content-type': 'text/html' }, '<html><body>Service unavailable</body></html>')
      if (server.misbehave === 'endless-token') return endless(res, (n) => (server.sent += n))
      const { response, error } = await runOAuth((r, s) => oauth.token(r, s))
      if (error) return send(error.status, { 'content-type': 'application/json' }, JSON.stringify(error.body))
      const tokenType = TOKEN_TYPES[server.misbehave]
      const answer = tokenType ? { ...(response.body as object), token_type: tokenType } : response.body
      return send(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }, JSON.stringify(answer))
    }

    const shape = url.pathname.split('/')[1] as Shape
    if (['github', 'bitbucket', 'facebook', 'twitter'].includes(shape)) {
      const { result, error } = await runOAuth((r, s) => oauth.authenticate(r, s))
      if (error) return send(401, { 'content-type': 'application/json' }, JSON.stringify({ message: 'Bad credentials' }))
      if (server.misbehave === 'endless-userinfo') return endless(res, (n) => (server.sent += n))
      const person = directory.get(((result as { user: { id: string } }).user).id)
      const path = url.pathname.slice(shape.length + 1) + (url.search ? url.search : '')
      const profile = person && shapedProfile(shape, path.split('?')[0]!, person)
      if (profile === undefined) return send(404, { 'content-type': 'application/json' }, '{"message":"Not Found"}')
      return send(200, { 'content-type': 'application/json' }, JSON.stringify(profile))
    }
    send(404, { 'content-type': 'text/plain' }, 'not found')
  })
  return server
}
