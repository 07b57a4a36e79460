/**
 * The three sign-in routes, as plain functions of (payload, request) so the
 * route handlers (routes.ts) stay one line and tests call exactly what they call:
 *   GET  /login/<provider>            start a sign-in (?intent=link: link to the signed-in account)
 *   GET  /login/<provider>/callback   finish it: check state, exchange the code, sign in
 *   POST /login/<provider>/unlink     remove a linked provider from the signed-in account
 * Every failure ends on the login (or profile) page with a message code; no
 * token, code or provider text is ever put in a URL or a log.
 */
import { createLocalReq, type Payload } from 'payload'
import { generateCookie, parseCookies } from 'payload/shared'

import { limitRequestByIp, RateLimited } from '../../lib/rateLimit'
import { safeRedirect } from '../../lib/safeRedirect'
import { SWITCHED_NO_CREDENTIALS, switchedFrom } from '../../lib/switchedSession'
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

const notFound = () => new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })

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

const switchedRefusal = () =>
  new Response(SWITCHED_NO_CREDENTIALS, { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })

/** Reads one JSON document from a provider's user API, with a timeout and a size limit. */
async function providerJson(url: string, accessToken: string, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json', 'User-Agent': 'Inkwell' },
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'error',
  })
  if (!response.ok) throw new ProviderAnswerError(`The provider's user API answered ${response.status}.`)
  const body = await response.text()
  if (body.length > MAX_PROFILE_BYTES) throw new ProviderAnswerError('The provider sent an oversized profile.')
  try {
    return JSON.parse(body)
  } catch {
    throw new ProviderAnswerError('The provider sent a profile that is not JSON.')
  }
}

type Prepared = { strategy: ReturnType<typeof buildStrategy>; oidc: boolean }

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
  return { strategy: buildStrategy(payload, settings, definition, endpoints, load, timeoutMs), oidc: true }
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
  if (!flow || !settings) return notFound()
  // Every start stores a sign-in in flight: limited per address (and the store is bounded, attempts.ts).
  try {
    await limitRequestByIp(payload, request, 'oauthStart', 'Too many sign-ins started from your address.')
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error
    const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': String(error.retryAfterSeconds) }
    return new Response(error.message, { status: 429, headers })
  }
  const linking = new URL(request.url).searchParams.get('intent') === 'link'
  let linkUserId: number | undefined
  if (linking) {
    if (isCrossSite(request, flow.baseUrl)) return new Response('Start linking from your profile page on this site.', { status: 403 })
    const signedIn = await signedInUserId(payload, request)
    if (signedIn === 'switched') return switchedRefusal()
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

function isTimeout(error: unknown): boolean {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.name === 'TimeoutError' || e.code === 'ETIMEDOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT' || e.code === 'ERR_JWKS_TIMEOUT' || e.code === 'OAUTH_TIMEOUT') return true
    e = (e.cause ?? e.oauthError) as Record<string, unknown> | undefined
  }
  return false
}

/** The message code for a failure of the exchange, from the kind of error. */
function classify(error: unknown): OAuthErrorCode {
  if (isTimeout(error)) return 'timeout'
  if (error instanceof IdTokenError) return 'id_token'
  if (error instanceof ProviderAnswerError || error instanceof SyntaxError) return 'garbage'
  // passport-oauth2's words for a token answer without an access token (an HTML page, an empty body).
  if ((error as Error)?.message === 'Failed to obtain access token') return 'garbage'
  const name = (error as { name?: string })?.name
  if (name === 'TokenError') return 'rejected'
  if (name === 'AuthorizationError') return 'provider'
  if (name === 'InternalOAuthError') {
    const status = Number((error as { oauthError?: { statusCode?: unknown } }).oauthError?.statusCode)
    if (status >= 400 && status < 500) return 'rejected'
    if (status >= 500) return 'provider'
    return 'unavailable'
  }
  if (name === 'OperationProcessingError' || name === 'ResponseBodyError') return 'garbage'
  return 'unavailable'
}

/** GET /login/<provider>/callback */
export async function finishSignIn(payload: Payload, request: Request, providerId: string): Promise<Response> {
  const flow = oauthOptions(payload)
  const settings = configuredProvider(providerId, flow)
  if (!flow || !settings) return notFound()
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
  if (!flow || !(OAUTH_PROVIDERS as readonly string[]).includes(providerId)) return notFound()
  if (isCrossSite(request, flow.baseUrl)) return new Response('This form was sent from another site.', { status: 403 })
  const { user } = await payload.auth({ headers: request.headers })
  if (!user || user.collection !== 'users') return redirect('/login?next=/profile')
  if (switchedFrom(user)) return switchedRefusal()
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
