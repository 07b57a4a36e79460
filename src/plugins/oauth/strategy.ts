/**
 * passport-oauth2 without Express: a strategy is run once per request on a
 * small request object, and its outcome (redirect, success, fail, error)
 * becomes a promise. The OAuth 2.0 exchange itself (authorization URL, PKCE
 * S256 challenge, code for token) is passport-oauth2's; the state lives in
 * the server-side attempt store (attempts.ts), handed to the strategy as its
 * `store`, so express-session is not needed.
 */
import http from 'node:http'
import https from 'node:https'
import type { Socket } from 'node:net'

import OAuth2Strategy, { type StateStore } from 'passport-oauth2'
import type { Payload } from 'payload'

import type { OAuthProviderSettings } from './settings'
import { randomToken, saveAttempt, takeAttempt, type Attempt, type AttemptCheck } from './attempts'
import type { ProviderDefinition, ProviderProfile } from './providers'

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

/**
 * An HTTP agent whose sockets give up after `ms` without traffic: node-oauth,
 * which passport-oauth2 uses for the token request, sets no timeout itself,
 * so a provider that never answers would hold the request forever.
 */
function agentWithTimeout(url: string, ms: number): http.Agent {
  const agent = url.startsWith('https:') ? new https.Agent({ keepAlive: false }) : new http.Agent({ keepAlive: false })
  const create = agent.createConnection.bind(agent) as (...args: unknown[]) => Socket
  ;(agent as unknown as { createConnection: (...args: unknown[]) => Socket }).createConnection = (...args: unknown[]) => {
    const socket = create(...args)
    socket.setTimeout(ms, () => socket.destroy(Object.assign(new Error(`No answer within ${ms} ms`), { code: 'ETIMEDOUT' })))
    return socket
  }
  return agent
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
  ;(strategy as unknown as { _oauth2: { setAgent: (agent: http.Agent) => void } })._oauth2.setAgent(agentWithTimeout(endpoints.tokenUrl, timeoutMs))
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
