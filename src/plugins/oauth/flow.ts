/**
 * The three sign-in routes, as plain functions of (payload, request) so the
 * route handlers (routes.ts) stay one line and tests call exactly what they call:
 *   GET  /login/<provider>            start a sign-in (?intent=link: link to the signed-in account)
 *   GET  /login/<provider>/callback   finish it: check state, exchange the code, sign in
 *   POST /login/<provider>/unlink     remove a linked provider from the signed-in account
 * Every failure ends on the login (or profile) page with a message code; no
 * token, code or provider text is ever put in a URL or a log.
 */
import OAuth2Strategy from 'passport-oauth2'
import { createLocalReq, type Payload } from 'payload'
import { generateCookie, parseCookies } from 'payload/shared'

import { limitedFetch, OutboundError } from '../../lib/outboundFetch'
import { limitRequestByIp, RateLimited } from '../../lib/rateLimit'
import { safeRedirect } from '../../lib/safeRedirect'
import { validationTranslator } from '../../lib/i18n/request'
import { switchedFrom } from '../../lib/switchedSession'
import { linkToUser, signInOrRegister } from './accounts'
import { importProviderAvatar } from './avatar'
import { ATTEMPT_TTL_MS, BROWSER_COOKIE, randomToken, takeAttempt, type Attempt } from './attempts'
import type { OAuthErrorCode } from './messages'
import { oauthOptions, type OAuthOptions } from './options'
import { discover, IdTokenError, profileFromClaims, verifiedIdTokenProfile } from './oidc'
import { providerDefinition, ProviderAnswerError, type PlainProvider, type ProviderProfile } from './providers'
import { sessionCookieFor } from './session'
import { OAUTH_PROVIDERS, type OAuthProviderId, type OAuthProviderSettings } from './settings'
import { buildStrategy, runStrategy, type ProfileLoader, type StrategyRequest } from './strategy'

const COOKIE_PATH = '/login/'
const MAX_PROFILE_BYTES = 256 * 1024

/** The provider, if the id is one of ours, allowed and configured; anything else is a 404. */
export function configuredProvider(id: string, options: OAuthOptions | undefined): OAuthProviderSettings | undefined {
  if (!options || !(OAUTH_PROVIDERS as readonly string[]).includes(id)) return undefined
  return options.providers.find((p) => p.id === id)
}

/** A plain-text answer in the visitor's language (the `lang` cookie or Accept-Language). */
const plainText = (request: Request, key: 'oauth.notFound' | 'oauth.startFromProfile' | 'oauth.crossSite' | 'error.switched.noCredentials', status: number) =>
  new Response(validationTranslator({ headers: request.headers })(key), { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })
const notFound = (request: Request) => plainText(request, 'oauth.notFound', 404)

function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' })
  for (const cookie of cookies) headers.append('Set-Cookie', cookie)
  return new Response(null, { status: 303, headers })
}

function browserCookie(value: string, secure: boolean, maxAgeSeconds: number): string {
  return generateCookie<false>({
    name: BROWSER_COOKIE,
    value,
    httpOnly: true,
    path: COOKIE_PATH,
    sameSite: 'Lax',
    secure,
    maxAge: maxAgeSeconds,
    returnCookieAsObject: false,
  })
}

const failurePage = (code: OAuthErrorCode, provider: string, linking: boolean) =>
  `${linking ? '/profile' : '/login'}?oauth_error=${code}&provider=${encodeURIComponent(provider)}`

/** A POST from another site (a forged "link" or "unlink") is refused, as for the account forms. */
function isCrossSite(request: Request, baseUrl: string): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site && site !== 'same-origin' && site !== 'none') return true
  const origin = request.headers.get('origin')
  return origin !== null && origin !== new URL(baseUrl).origin
}

/** The signed-in user's id; `'switched'` for a session switched by the debug-only user switcher, which links no provider to the user browsed as. */
async function signedInUserId(payload: Payload, request: Request, { afterProvider = false } = {}): Promise<number | 'switched' | undefined> {
  let headers = request.headers
  if (afterProvider) {
    // Back from the provider the navigation is marked cross-site, which Payload's cookie rule refuses.
    // Here the one-time state bound to this browser is the proof against forgery, so the session cookie is read as is.
    headers = new Headers({ cookie: request.headers.get('cookie') ?? '', 'sec-fetch-site': 'same-origin' })
  }
  const { user } = await payload.auth({ headers })
  if (switchedFrom(user)) return 'switched'
  return user && user.collection === 'users' ? (user.id as number) : undefined
}

const switchedRefusal = (request: Request) => plainText(request, 'error.switched.noCredentials', 403)

/** Reads one JSON document from a provider's user API, with a timeout and a size limit that hold while reading. */
async function providerJson(url: string, accessToken: string, timeoutMs: number): Promise<unknown> {
  const response = await limitedFetch(url, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json', 'User-Agent': 'Inkwell' },
    timeoutMs,
    maxBytes: MAX_PROFILE_BYTES,
  })
  if (response.status < 200 || response.status > 299) throw new ProviderAnswerError(`The provider's user API answered ${response.status}.`)
  try {
    return JSON.parse(response.body.toString('utf8'))
  } catch {
    throw new ProviderAnswerError('The provider sent a profile that is not JSON.')
  }
}

/** `issuer`: an OpenID provider's identifier, and whether it says it sends RFC 9207's `iss` with every authorization response. */
type Prepared = { strategy: ReturnType<typeof buildStrategy>; oidc: boolean; issuer?: { id: string; sendsIss: boolean } }

/** The strategy for this provider: fixed addresses for plain OAuth 2.0, discovered ones for OpenID Connect. */
async function prepare(payload: Payload, settings: OAuthProviderSettings, timeoutMs: number): Promise<Prepared> {
  const definition = providerDefinition(settings)
  if (definition.kind === 'oauth2') {
    const plain: PlainProvider = definition
    const load: ProfileLoader = (accessToken) => plain.readProfile((path) => providerJson(`${plain.apiUrl}${path}`, accessToken, timeoutMs))
    return { strategy: buildStrategy(payload, settings, definition, plain, load, timeoutMs), oidc: false }
  }
  const issuer = await discover(settings, definition.issuer!, timeoutMs)
  const load: ProfileLoader = async (accessToken, tokenResponse, attempt) => {
    const verified = await verifiedIdTokenProfile(tokenResponse.id_token, issuer, settings.clientId, attempt.nonce)
    if (verified.email || !issuer.metadata.userinfo_endpoint) return verified
    // Some issuers keep the e-mail out of the ID token; the UserInfo answer counts only for the same subject.
    const info = (await providerJson(issuer.metadata.userinfo_endpoint, accessToken, timeoutMs)) as Record<string, unknown>
    if (info?.sub !== verified.subject) throw new IdTokenError('The UserInfo answer is about another subject.')
    return { ...profileFromClaims(info), subject: verified.subject }
  }
  const endpoints = { authorizationUrl: issuer.metadata.authorization_endpoint!, tokenUrl: issuer.metadata.token_endpoint! }
  const issuerId = { id: issuer.metadata.issuer, sendsIss: issuer.metadata.authorization_response_iss_parameter_supported === true }
  return { strategy: buildStrategy(payload, settings, definition, endpoints, load, timeoutMs), oidc: true, issuer: issuerId }
}

function strategyRequest(request: Request, browserValue: string | undefined): StrategyRequest {
  const url = new URL(request.url)
  return { query: Object.fromEntries(url.searchParams), url: url.pathname + url.search, headers: {}, browserValue }
}

/**
 * GET /login/<provider> signs in; GET /login/<provider>?intent=link links the provider to the
 * signed-in account. A link is a plain link, not a form: the site's CSP (`form-action 'self'`)
 * would stop a form whose answer redirects to the provider. It is honoured only from a page of
 * this site (Sec-Fetch-Site or Origin), so another site cannot start one.
 */
export async function startSignIn(payload: Payload, request: Request, providerId: string): Promise<Response> {
  const flow = oauthOptions(payload)
  const settings = configuredProvider(providerId, flow)
  if (!flow || !settings) return notFound(request)
  // Every start stores a sign-in in flight: limited per address (and the store is bounded, attempts.ts).
  try {
    await limitRequestByIp(payload, request, 'oauthStart', 'error.rateLimit.signIns')
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error
    const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': String(error.retryAfterSeconds) }
    return new Response(error.message, { status: 429, headers })
  }
  const linking = new URL(request.url).searchParams.get('intent') === 'link'
  let linkUserId: number | undefined
  if (linking) {
    if (isCrossSite(request, flow.baseUrl)) return plainText(request, 'oauth.startFromProfile', 403)
    const signedIn = await signedInUserId(payload, request)
    if (signedIn === 'switched') return switchedRefusal(request)
    if (!signedIn) return redirect('/login?next=/profile')
    linkUserId = signedIn
  }
  const next = linking ? '/profile' : safeRedirect(new URL(request.url).searchParams.get('next'))
  let prepared: Prepared
  try {
    prepared = await prepare(payload, settings, flow.timeoutMs)
  } catch (error) {
    payload.logger.warn({ msg: `OAuth ${settings.id}: the provider's configuration could not be loaded`, err: describeError(error) })
    return redirect(failurePage(classify(error), settings.id, linking))
  }
  const browserValue = randomToken()
  const nonce = prepared.oidc ? randomToken() : undefined
  const req = strategyRequest(request, browserValue)
  req.query = {}
  req.starting = { provider: settings.id, nonce, next, linkUserId }
  const outcome = await runStrategy(prepared.strategy, req, { nonce }, flow.timeoutMs)
  if (outcome.kind !== 'redirect') {
    payload.logger.error({ msg: `OAuth ${settings.id}: the sign-in could not be started`, err: outcome.kind === 'error' ? describeError(outcome.error) : undefined })
    return redirect(failurePage('unavailable', settings.id, linking))
  }
  return redirect(outcome.url, [browserCookie(browserValue, flow.secureCookies, ATTEMPT_TTL_MS / 1000)])
}

/** Only the error's name, code and status: provider answers can echo a code or a token, which must never reach a log. */
function describeError(error: unknown): Record<string, unknown> {
  const e = error as { name?: string; code?: unknown; status?: unknown; statusCode?: unknown; oauthError?: { statusCode?: unknown; code?: unknown } }
  return { name: e?.name, code: e?.code ?? e?.oauthError?.code, status: e?.status ?? e?.statusCode ?? e?.oauthError?.statusCode }
}

/** The error, then what it wraps (`cause`, passport-oauth2's `oauthError`), a few levels deep. */
function* errorChain(error: unknown): Generator<Record<string, unknown>> {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    yield e
    e = (e.cause ?? e.oauthError) as Record<string, unknown> | undefined
  }
}

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ERR_JWKS_TIMEOUT', 'OAUTH_TIMEOUT', 'OUTBOUND_TIMEOUT'])
/** openid-client's (oauth4webapi's) codes for an answer it could not use, and the limited fetch's for one too large. */
const GARBAGE_CODES = new Set([
  'OAUTH_RESPONSE_BODY_ERROR',
  'OAUTH_PARSE_ERROR',
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_RESPONSE_IS_NOT_JSON',
  'OAUTH_RESPONSE_IS_NOT_CONFORM',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_INVALID_SERVER_METADATA',
  'OAUTH_MISSING_SERVER_METADATA',
  'OUTBOUND_TOO_LARGE',
  'OUTBOUND_REDIRECTS',
])

function isTimeout(error: unknown): boolean {
  for (const e of errorChain(error)) {
    // A DOMException's name is the platform's, never a bundler's.
    if ((e instanceof DOMException && e.name === 'TimeoutError') || TIMEOUT_CODES.has(e.code as string)) return true
  }
  return false
}

/**
 * The message code for a failure of the exchange, from the kind of error: by
 * `instanceof` and error codes only. Class names are not used: the production
 * bundle minifies them, and passport-oauth2 names its errors after their
 * constructor (`this.name = this.constructor.name`).
 */
export function classify(error: unknown): OAuthErrorCode {
  if (isTimeout(error)) return 'timeout'
  if (error instanceof IdTokenError) return 'id_token'
  if (error instanceof OAuth2Strategy.TokenError) return 'rejected'
  if (error instanceof OAuth2Strategy.AuthorizationError) return 'provider'
  for (const e of errorChain(error)) {
    if (e instanceof IdTokenError) return 'id_token'
    if (e instanceof ProviderAnswerError || e instanceof SyntaxError) return 'garbage'
    if (GARBAGE_CODES.has(e.code as string) || (e instanceof OutboundError && e.code !== 'OUTBOUND_FAILED')) return 'garbage'
  }
  // passport-oauth2's words for a token answer without an access token (an HTML page, an empty body).
  if ((error as Error)?.message === 'Failed to obtain access token' && !(error instanceof OAuth2Strategy.InternalOAuthError)) return 'garbage'
  if (error instanceof OAuth2Strategy.InternalOAuthError) {
    const status = Number((error as { oauthError?: { statusCode?: unknown } }).oauthError?.statusCode)
    if (status >= 400 && status < 500) return 'rejected'
    if (status >= 500) return 'provider'
    return 'unavailable'
  }
  return 'unavailable'
}

/**
 * RFC 9207 (the mix-up defence): an OpenID provider's answer that names an
 * issuer must name this provider's, and a provider that says it always sends
 * `iss` must have sent it. Plain OAuth 2.0 providers publish no issuer
 * identifier to compare with (and GitHub, Facebook, X, Bitbucket send none).
 */
function issuerMismatch(prepared: Prepared, iss: string | null): boolean {
  if (!prepared.issuer) return false
  if (iss === null) return prepared.issuer.sendsIss
  return iss !== prepared.issuer.id
}

/** GET /login/<provider>/callback */
export async function finishSignIn(payload: Payload, request: Request, providerId: string): Promise<Response> {
  const flow = oauthOptions(payload)
  const settings = configuredProvider(providerId, flow)
  if (!flow || !settings) return notFound(request)
  const clearCookie = browserCookie('', flow.secureCookies, 0)
  const query = new URL(request.url).searchParams
  const fail = (code: OAuthErrorCode, linking = false) => redirect(failurePage(code, settings.id, linking), [clearCookie])
  // Without a code or an error this is not a provider's answer; passport-oauth2 would start a new sign-in.
  if (!query.get('code') && !query.get('error')) return fail(query.get('state') ? 'garbage' : 'state')
  if (!query.get('state')) return fail('state')

  let prepared: Prepared
  try {
    prepared = await prepare(payload, settings, flow.timeoutMs)
  } catch (error) {
    payload.logger.warn({ msg: `OAuth ${settings.id}: the provider's configuration could not be loaded`, err: describeError(error) })
    return fail(classify(error))
  }
  const req = strategyRequest(request, parseCookies(request.headers).get(BROWSER_COOKIE))
  // An answer that names another issuer (or none, from one that always names itself) is not exchanged: the attempt is used up.
  if (issuerMismatch(prepared, query.get('iss'))) {
    const check = await takeAttempt(payload, query.get('state') ?? undefined, req.browserValue, settings.id)
    payload.logger.warn({ msg: `OAuth ${settings.id}: the answer names another issuer (RFC 9207), refused` })
    return fail(check.ok ? 'wrong_issuer' : 'state', check.ok && Boolean(check.attempt.linkUserId))
  }
  // passport-oauth2 checks the state only with a code; a provider's error answer must be this browser's too.
  if (query.get('error') && !query.get('code')) {
    const check = await takeAttempt(payload, query.get('state') ?? undefined, req.browserValue, settings.id)
    if (!check.ok) return fail('state')
    return fail(query.get('error') === 'access_denied' ? 'denied' : 'provider', Boolean(check.attempt.linkUserId))
  }
  const outcome = await runStrategy(prepared.strategy, req, {}, flow.timeoutMs)
  const attempt: Attempt | undefined = req.check?.ok ? req.check.attempt : undefined
  const linking = Boolean(attempt?.linkUserId)
  if (outcome.kind === 'fail') return fail(req.check && !req.check.ok ? 'state' : 'denied', linking)
  if (outcome.kind === 'error') {
    const code = classify(outcome.error)
    payload.logger.warn({ msg: `OAuth ${settings.id}: sign-in failed (${code})`, err: describeError(outcome.error) })
    return fail(code, linking)
  }
  if (outcome.kind !== 'success') return fail('garbage', linking)
  return completeSignIn(payload, request, settings.id, outcome.profile, outcome.attempt, flow, clearCookie)
}

async function completeSignIn(
  payload: Payload,
  request: Request,
  provider: OAuthProviderId,
  profile: ProviderProfile,
  attempt: Attempt,
  flow: OAuthOptions,
  clearCookie: string,
): Promise<Response> {
  if (attempt.linkUserId) {
    // The session that asked for the link must still be the one finishing it.
    if ((await signedInUserId(payload, request, { afterProvider: true })) !== attempt.linkUserId) return redirect(failurePage('state', provider, true), [clearCookie])
    const linked = await linkToUser(payload, provider, profile, attempt.linkUserId)
    if (linked.kind === 'refused') return redirect(failurePage(linked.code, provider, true), [clearCookie])
    return redirect(`/profile?oauth=linked&provider=${provider}`, [clearCookie])
  }
  const outcome = await signInOrRegister(payload, provider, profile, flow)
  if (outcome.kind === 'refused') return redirect(failurePage(outcome.code, provider, false), [clearCookie])
  if (outcome.kind === 'verify-mail') return redirect(`/login?oauth=verify&provider=${provider}`, [clearCookie])
  if (outcome.kind !== 'signed-in') return redirect(failurePage('state', provider, false), [clearCookie])
  if (outcome.created && profile.avatarUrl) {
    const settings = configuredProvider(provider, flow)!
    const origins = [settings.apiUrl, settings.issuer, settings.authorizationUrl].filter(Boolean).map((u) => new URL(u!).origin)
    await importProviderAvatar(payload, {
      userId: outcome.userId,
      name: profile.name ?? 'a reader',
      url: profile.avatarUrl,
      providerOrigins: origins,
      timeoutMs: flow.timeoutMs,
      maxBytes: flow.avatarMaxBytes,
      outbound: flow.outbound,
    })
  }
  const req = await createLocalReq({}, payload)
  const session = await sessionCookieFor(req, outcome.userId, flow.secureCookies)
  const next = outcome.created && attempt.next === '/' ? '/profile?welcome=1' : safeRedirect(attempt.next)
  return redirect(next, [clearCookie, session])
}

/** POST /login/<provider>/unlink — the collection's hook refuses the last way to sign in. */
export async function unlinkProvider(payload: Payload, request: Request, providerId: string): Promise<Response> {
  const flow = oauthOptions(payload)
  if (!flow || !(OAUTH_PROVIDERS as readonly string[]).includes(providerId)) return notFound(request)
  if (isCrossSite(request, flow.baseUrl)) return plainText(request, 'oauth.crossSite', 403)
  const { user } = await payload.auth({ headers: request.headers })
  if (!user || user.collection !== 'users') return redirect('/login?next=/profile')
  if (switchedFrom(user)) return switchedRefusal(request)
  const req = await createLocalReq({ user }, payload)
  // A bulk delete reports a hook's refusal per document instead of throwing it.
  const { docs, errors } = await payload.delete({
    collection: 'oauth-identities',
    where: { and: [{ user: { equals: user.id } }, { provider: { equals: providerId } }] },
    overrideAccess: false,
    req,
  })
  if (errors.length) return redirect(failurePage('last_method', providerId, true))
  if (docs.length === 0) return redirect('/profile')
  return redirect(`/profile?oauth=unlinked&provider=${providerId}`)
}
