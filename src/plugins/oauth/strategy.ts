/**
 * passport-oauth2 without Express: a strategy is run once per request on a
 * small request object, and its outcome (redirect, success, fail, error)
 * becomes a promise. The OAuth 2.0 exchange itself (authorization URL, PKCE
 * S256 challenge, code for token) is passport-oauth2's, the token request
 * sent through the project's limited fetch (tokenExchange); the state lives in
 * the server-side attempt store (attempts.ts), handed to the strategy as its
 * `store`, so express-session is not needed.
 */
import OAuth2Strategy, { type StateStore } from 'passport-oauth2'
import type { Payload } from 'payload'

import { limitedFetch } from '../../lib/outboundFetch'
import type { OAuthProviderSettings } from './settings'
import { randomToken, saveAttempt, takeAttempt, type Attempt, type AttemptCheck } from './attempts'
import { ProviderAnswerError, type ProviderDefinition, type ProviderProfile } from './providers'

/** The request as the strategy sees it: only the query string matters to passport-oauth2 once the callback URL is absolute. */
export type StrategyRequest = {
  query: Record<string, string>
  url: string
  headers: Record<string, string>
  /** The browser's binding cookie value, and what the store read or wrote. */
  browserValue?: string
  starting?: Omit<Attempt, 'state' | 'codeVerifier'>
  check?: AttemptCheck
}

export type StrategyOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'success'; profile: ProviderProfile; attempt: Attempt }
  | { kind: 'fail'; info: unknown }
  | { kind: 'error'; error: unknown }

/** What the verify step gets: the token response (never kept) and the attempt, to check an ID token's nonce. */
export type ProfileLoader = (accessToken: string, tokenResponse: Record<string, unknown>, attempt: Attempt) => Promise<ProviderProfile>

/** The largest token response read: an access token, an ID token and a few fields fit in far less. */
export const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024

type TokenCallback = (error: unknown, accessToken?: string, refreshToken?: string, results?: Record<string, unknown>) => void

/**
 * The code-for-token request, in place of node-oauth's (which reads the whole
 * answer into memory and has no timeout): through limitedFetch, so the time
 * limit covers the whole exchange and the byte cap holds while reading. The
 * request is node-oauth's (a form POST with the client credentials), and so are
 * the outcomes passport-oauth2 expects: `{ statusCode, data }` for an error
 * status (a TokenError when the body is an OAuth error), the token and the
 * response otherwise. A response without an access token, or whose token_type
 * is not `Bearer` (RFC 6750, compared case-insensitively), is refused: the
 * token is sent only as a Bearer token, so any other type would be misused.
 */
function tokenExchange(tokenUrl: string, settings: OAuthProviderSettings, timeoutMs: number) {
  return (code: string, params: Record<string, string>, callback: TokenCallback) => {
    const form = new URLSearchParams({ ...params, client_id: settings.clientId, client_secret: settings.clientSecret, code })
    limitedFetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': 'Inkwell' },
      body: form.toString(),
      timeoutMs,
      maxBytes: MAX_TOKEN_RESPONSE_BYTES,
    }).then(
      (answer) => {
        const text = answer.body.toString('utf8')
        if (answer.status < 200 || answer.status > 299) return callback({ statusCode: answer.status, data: text })
        let results: unknown
        try {
          results = JSON.parse(text)
        } catch {
          // GitHub's older answer: a form-encoded body.
          results = Object.fromEntries(new URLSearchParams(text))
        }
        const r = (results && typeof results === 'object' ? results : {}) as Record<string, unknown>
        if (typeof r.access_token !== 'string' || !r.access_token) return callback(new ProviderAnswerError('The token response carries no access token.'))
        if (typeof r.token_type !== 'string' || r.token_type.toLowerCase() !== 'bearer') {
          return callback(new ProviderAnswerError('The token response is not of the Bearer type.'))
        }
        const { refresh_token: refreshToken, ...rest } = r
        callback(null, r.access_token, typeof refreshToken === 'string' ? refreshToken : undefined, rest)
      },
      (error: unknown) => callback(error),
    )
  }
}

/** passport-oauth2's state store, backed by the attempt table and bound to the browser's cookie value. */
function attemptStore(payload: Payload, settings: OAuthProviderSettings): StateStore {
  return {
    store(req: StrategyRequest, verifier: string | undefined, _state: unknown, _meta: unknown, callback: (err: Error | null, state?: string) => void) {
      const state = randomToken()
      const attempt = { ...req.starting!, state, codeVerifier: verifier }
      saveAttempt(payload, attempt, req.browserValue!).then(() => callback(null, state), callback)
    },
    verify(req: StrategyRequest, state: string | undefined, _meta: unknown, callback: (err: Error | null, ok: unknown, info?: unknown) => void) {
      takeAttempt(payload, state, req.browserValue, settings.id).then((check) => {
        req.check = check
        if (!check.ok) callback(null, false, { message: check.reason })
        else callback(null, check.attempt.codeVerifier ?? true, check.attempt)
      }, (error: Error) => callback(error, false))
    },
  } as unknown as StateStore
}

export type BuiltStrategy = { strategy: OAuth2Strategy }

/** One strategy per provider and request: its addresses may come from discovery, and nothing in it is shared. */
export function buildStrategy(
  payload: Payload,
  settings: OAuthProviderSettings,
  definition: ProviderDefinition,
  endpoints: { authorizationUrl: string; tokenUrl: string },
  loadProfile: ProfileLoader,
  timeoutMs: number,
): OAuth2Strategy {
  const strategy = new OAuth2Strategy(
    {
      authorizationURL: endpoints.authorizationUrl,
      tokenURL: endpoints.tokenUrl,
      clientID: settings.clientId,
      clientSecret: settings.clientSecret,
      callbackURL: settings.redirectUri,
      scope: definition.scope,
      pkce: definition.pkce ? 'S256' : false,
      store: attemptStore(payload, settings) as never,
      passReqToCallback: true,
      // The person is read in the verify step below, with a timeout and the attempt at hand.
      skipUserProfile: true,
    } as never,
    // Six parameters: passport-oauth2 passes the token response (`params`, with the ID token) only to a verify of this arity.
    ((
      req: StrategyRequest,
      accessToken: string,
      _refreshToken: string,
      params: Record<string, unknown>,
      _profile: unknown,
      done: (err: unknown, user?: unknown) => void,
    ) => {
      const attempt = req.check?.ok ? req.check.attempt : undefined
      if (!attempt) return done(new Error('The sign-in attempt was not checked.'))
      loadProfile(accessToken, params, attempt).then((profile) => done(null, { profile, attempt }), done)
    }) as never,
  )
  // OpenID Connect: the nonce chosen for this attempt goes into the authorization request.
  strategy.authorizationParams = (options: { nonce?: string }) => (options.nonce ? { nonce: options.nonce } : {})
  ;(strategy as unknown as { _oauth2: { getOAuthAccessToken: unknown } })._oauth2.getOAuthAccessToken = tokenExchange(endpoints.tokenUrl, settings, timeoutMs)
  return strategy
}

/** Runs the strategy on one request, as passport's middleware would, and answers with its outcome. */
export function runStrategy(strategy: OAuth2Strategy, req: StrategyRequest, options: Record<string, unknown>, timeoutMs: number): Promise<StrategyOutcome> {
  return new Promise<StrategyOutcome>((resolve) => {
    const run = Object.create(strategy) as OAuth2Strategy & Record<string, unknown>
    // Every step that talks to the provider has its own timeout; this one bounds the whole exchange.
    const deadline = setTimeout(() => resolve({ kind: 'error', error: Object.assign(new Error('The provider did not answer in time.'), { code: 'ETIMEDOUT' }) }), timeoutMs * 3)
    const settle = (outcome: StrategyOutcome) => {
      clearTimeout(deadline)
      resolve(outcome)
    }
    run.redirect = (url: string) => settle({ kind: 'redirect', url })
    run.success = (user: { profile: ProviderProfile; attempt: Attempt }) => settle({ kind: 'success', profile: user.profile, attempt: user.attempt })
    run.fail = (info: unknown) => settle({ kind: 'fail', info })
    run.error = (error: unknown) => settle({ kind: 'error', error })
    run.pass = () => settle({ kind: 'error', error: new Error('The strategy passed the request on.') })
    try {
      run.authenticate(req as never, options)
    } catch (error) {
      settle({ kind: 'error', error })
    }
  })
}
