/**
 * The one origin: a plain Node HTTP server that hands each request, unbuffered,
 * to Next's request handler (Payload admin, REST, GraphQL) or to Astro's
 * node-adapter handler (the reader site and its assets). Both stream.
 */
import { readdirSync } from 'node:fs'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import { getPayload, handleEndpoints, type Payload } from 'payload'

import { listenForInvalidations } from '../lib/cacheBus'
import type { Env } from '../lib/env'
import { DATABASE_RETRY_AFTER_SECONDS, databaseAnswers, isDatabaseUnavailable } from '../lib/databaseOutage'
import { poolIfConnected, query } from '../lib/pool'
import { redactCredentials } from '../lib/redactCredentials'
import { acceptingEveryBodyForm } from '../lib/requestBody'
import { installSitePayload } from '../lib/sitePayload'
import type { ViewCounter } from '../plugins/activity/views'
import { enforceBodyLimit } from './bodyLimit'
import { guardAdminView, isGuardedAdminView } from './guardedAdminViews'
import { operations, requestIdOf, sendRequestId, takeRequestId } from './observability'
import { requestedLanguage } from '../lib/i18n/negotiate'
import { cacheKeyOf, isCacheable, noteCacheOutcome, RenderCache, renderPage, withLanguage } from './renderCache'
import { moveAccessTokenToHeader } from './accessTokenParameter'
import { refuseNulInUrl } from './nulBytes'
import { plainHttpFetchSite } from './plainHttpFetchSite'
import { answerKeptCard } from '../plugins/content/keptCards'
import { cardGate, isCardRequest } from './cardGate'
import { CredentialCheck } from './credentialCheck'
import { carriesSession, withPrivateCaching } from './privateCaching'
import { ownerOf } from './routes'
import { isFramedBySite, securityHeaders } from './securityHeaders'
import { withDefaultCacheControl } from './staticCaching'

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown
export type WebServer = { server: http.Server; url: string; close: () => Promise<void>; cache?: RenderCache }

const root = path.resolve(import.meta.dirname, '../..')

async function loadNextHandler(env: Env): Promise<Handler> {
  const { default: next } = await import('next')
  const app = (next as unknown as (o: object) => { prepare: () => Promise<void>; getRequestHandler: () => Handler })({
    dev: false,
    dir: root,
    hostname: env.host,
    port: env.port,
    customServer: true,
    quiet: true,
  })
  await app.prepare()
  return app.getRequestHandler()
}

type AstroSite = { handler: Handler; staticFiles: Set<string> }

async function loadAstroHandler(): Promise<AstroSite> {
  // Astro's standalone entry would listen on its own port; we only want its handler.
  process.env.ASTRO_NODE_AUTOSTART = 'disabled'
  const entry = pathToFileURL(path.join(root, 'frontend/dist/server/entry.mjs')).href
  const mod = (await import(entry)) as { handler: Handler }
  return { handler: mod.handler, staticFiles: filesUnder(path.join(root, 'frontend/dist/client')) }
}

/** The site's static files by URL path, listed once: they bypass rendering. */
function filesUnder(dir: string): Set<string> {
  const files = new Set<string>()
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.add('/' + path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
  }
  return files
}

/** The reader site reads through this process's Payload (Local API), and posts forms through its REST handling. */
async function provideSitePayload(payload: Payload | undefined): Promise<Payload> {
  const instance = payload ?? (await getPayload({ config: (await import('../../payload.config')).default }))
  const rest = acceptingEveryBodyForm((request: Request) => handleEndpoints({ config: instance.config, request }))
  installSitePayload({ payload: instance, rest: (request) => rest(request, undefined) })
  return instance
}

function isLoopback(address: string | undefined): boolean {
  return !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))
}

function notReady(res: ServerResponse) {
  sendRequestId(res)
  res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '2' })
  res.end('Inkwell is starting…\n')
}

/** A request that failed: 503 with Retry-After while the database is away (src/lib/databaseOutage.ts), else 500. */
function internalError(res: ServerResponse, error: unknown, log: (m: string) => void, pool?: Parameters<typeof isDatabaseUnavailable>[1]) {
  log(redactCredentials(`request failed: ${error instanceof Error ? error.stack : String(error)}`))
  if (res.headersSent) return void res.destroy()
  sendRequestId(res)
  void isDatabaseUnavailable(error, pool).then((away) => {
    if (res.headersSent) return void res.destroy()
    if (away) {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) })
      return void res.end('Service Unavailable: the database is away for a moment, try again in a few seconds.\n')
    }
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
    res.end('Internal Server Error\n')
  })
}

/**
 * Listens at once (answering 503 with no-store while booting, so health checks
 * and load balancers see "not yet"), then loads both handlers.
 */
export type WebServerOptions = { log?: (m: string) => void; views?: ViewCounter; cache?: boolean; payload?: Payload }

export async function startWebServer(
  env: Env,
  { log = console.log, views, cache: useCache = env.renderCache.enabled, payload }: WebServerOptions = {},
): Promise<WebServer> {
  let nextHandler: Handler | undefined
  let astro: AstroSite | undefined
  let site: Payload | undefined
  const setSecurityHeaders = securityHeaders(env)
  // Asked only after a page failed: 503 with Retry-After rather than 500 while the database is away.
  const databaseAway = async () => !(await databaseAnswers(site && poolIfConnected(site)))
  const cache = useCache
    ? new RenderCache({ views, maxEntries: env.renderCache.maxEntries, maxBytes: env.renderCache.maxBytes, securityHeaders: setSecurityHeaders.site, databaseAway })
    : undefined
  // Always listening, cache or not: the site's in-memory layout data is purged by the same announcements.
  const listener = await listenForInvalidations(env.databaseUrl, log)
  const bodyLimits = { maxBodyBytes: env.maxBodyBytes, uploadMaxBytes: env.uploadMaxBytes }
  const markSameOrigin = plainHttpFetchSite(env.baseUrl)
  // Request ids, the request log line and metrics, /metrics and /readyz (src/server/observability.ts).
  const ops = operations(env)
  let credentials: CredentialCheck | undefined
  const cards = cardGate({ securityHeaders: setSecurityHeaders.admin })
  const apiSecurityHeaders = Object.fromEntries(setSecurityHeaders.admin)
  const keptCardHeaders = (requestId: string | undefined) => (requestId ? { ...apiSecurityHeaders, 'x-request-id': requestId } : apiSecurityHeaders)
  const fail = (res: ServerResponse, error: unknown) => internalError(res, error, log, site && poolIfConnected(site))

  /**
   * A reader-site page (not a static file): from the cache when the visitor is anonymous, else rendered for them.
   * `headersSet`: the security headers are on the response already; if not, the cache writes them with a hit.
   */
  const servePage = (req: IncomingMessage, res: ServerResponse, handler: Handler, headersSet: boolean) => {
    withPrivateCaching(req, res)
    const url = cache && isCacheable(req) ? cacheKeyOf(req.url ?? '/') : null
    // Keyed on the interface language the page will be rendered in (cookie, then Accept-Language), normalised to the catalogs'.
    const key = url && withLanguage(url, requestedLanguage(req.headers.cookie, req.headers['accept-language']))
    if (!key && !headersSet) setSecurityHeaders(req, res, 'astro')
    // Held back by observe() when the headers were: the cache's hit writes it with the others.
    const requestId = takeRequestId(res)
    if (!key && requestId) res.setHeader('x-request-id', requestId)
    const rendering = key ? cache!.serve(req, res, key, handler, { securityHeaders: !headersSet, requestId }) : renderPage(req, res, handler, { views, databaseAway })
    return void rendering.catch((error) => {
      if (!headersSet && !res.headersSent) setSecurityHeaders(req, res, 'astro')
      if (requestId && !res.headersSent && !res.hasHeader('x-request-id')) res.setHeader('x-request-id', requestId)
      fail(res, error)
    })
  }

  /**
   * The door (issue 28 §1): a plain anonymous read of a kept page — GET or HEAD with no session, no body and
   * no shutdown under way — is answered from the render cache before anything else is done for it, in one
   * writeHead with its request id and the site's security headers, and logged without a listener. What the
   * usual way does first is moot for it: no credentials to check or move out of the URL, no body to limit,
   * and a kept key only ever names a reader-site page (never a preview, a share card or a static file).
   * A URL with a `%` goes the usual way, as it does for deferred headers below.
   */
  const answeredAtDoor = (req: IncomingMessage, res: ServerResponse): boolean => {
    const headers = req.headers
    if ((req.method !== 'GET' && req.method !== 'HEAD') || headers.cookie !== undefined || headers.authorization !== undefined) return false
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined || req.url!.includes('%') || ops.draining) return false
    const started = performance.now()
    const requestId = requestIdOf(req)
    if (!cache!.answerAtDoor(req, res, requestId)) return false
    ops.answered(req, res, started, requestId, 'hit')
    return true
  }

  const server = http.createServer((req, res) => {
    if (cache && astro && answeredAtDoor(req, res)) return
    // Per-IP rate limits read X-Forwarded-For. From a remote peer it is whatever
    // the client claims, so it is replaced by the socket's address unless a proxy
    // is trusted; loopback peers (the reader site calling the API on a visitor's
    // behalf, or a local reverse proxy) keep theirs.
    if (!env.trustProxy && !isLoopback(req.socket.remoteAddress)) req.headers['x-forwarded-for'] = req.socket.remoteAddress ?? ''
    moveAccessTokenToHeader(req)
    markSameOrigin?.(req)
    const owner = ownerOf(req.url)
    const pathname = req.url?.split('?')[0] ?? '/'
    // A reader-site page read without a body (nothing below can answer it early) gets its security
    // headers from servePage, in one writeHead when it is a cache hit; everything else gets them now,
    // and so do the draft previews, whose framing rule is not the cached pages' (securityHeaders.ts).
    const page = owner === 'astro' && astro !== undefined && !astro.staticFiles.has(pathname)
    // So does a share-card request: a flood of them is answered 429 in one writeHead (cardGate.ts).
    const card = owner === 'next' && isCardRequest(req.url)
    const headersSet =
      !(card || (page && cache && !req.headers['content-length'] && !req.headers['transfer-encoding'] && !req.url?.includes('%'))) || isFramedBySite(pathname)
    // The request id waits with them (every other answer below sets it first: sendRequestId).
    ops.observe(req, res, (p) => Boolean(astro?.staticFiles.has(p)), { deferHeader: !headersSet })
    if (headersSet) setSecurityHeaders(req, res, owner)
    else if (card) {
      // One address asking for share cards too often is answered here, before anything else is done for it.
      const requestId = takeRequestId(res)
      const setHeaders = () => {
        setSecurityHeaders(req, res, owner)
        if (requestId) res.setHeader('x-request-id', requestId)
      }
      return void cards
        .admit(req, res, requestId)
        .then((admitted) => {
          if (!admitted) return
          // A kept card of a published article is answered here, like a cached page (keptCards.ts).
          if (!carriesSession(req) && answerKeptCard(req, res, keptCardHeaders(requestId))) return noteCacheOutcome(res, 'hit')
          setHeaders()
          route(req, res, owner, pathname, page, true)
        })
        .catch((error) => {
          if (!res.headersSent) setHeaders()
          fail(res, error)
        })
    }
    route(req, res, owner, pathname, page, headersSet)
  })
  server.keepAliveTimeout = 65_000 // longer than common load balancers' idle timeout
  server.headersTimeout = 66_000

  /** Everything after the request is observed: early refusals, then the owner's handler. */
  function route(req: IncomingMessage, res: ServerResponse, owner: ReturnType<typeof ownerOf>, pathname: string, page: boolean, headersSet: boolean) {
    if (enforceBodyLimit(req, res, bodyLimits)) return
    if (refuseNulInUrl(req, res)) return
    if (owner === 'health') {
      const ready = Boolean(nextHandler && astro)
      res.writeHead(ready ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
      return void res.end(JSON.stringify({ status: ready ? 'ok' : 'starting' }))
    }
    if (ops.answers(req, res, (error) => fail(res, error))) return
    const handler = owner === 'next' ? nextHandler : astro?.handler
    if (!handler) return notReady(res)
    if (page) {
      // Credentials that sign no one in (junk, forged, expired, unknown tokens) are dropped: the visitor is
      // anonymous and gets the cached page. Those that verify keep theirs: private, no-store (credentialCheck.ts).
      if (!credentials || !carriesSession(req)) return servePage(req, res, handler, headersSet)
      return void credentials
        .anonymize(req)
        .then(() => servePage(req, res, handler, headersSet))
        .catch((error) => fail(res, error))
    }
    if (owner === 'next') {
      // Anything but the site's static files may depend on the visitor's session: private, no-store then.
      withPrivateCaching(req, res)
      withDefaultCacheControl(res, pathname)
      // Admin views only some may open (the queue console) answer 403 to the others: only they pay for an auth lookup.
      if (isGuardedAdminView(site!, req.method, pathname)) {
        return void guardAdminView(site!, req, res)
          .then((answered) => answered || handler(req, res))
          .catch((error) => fail(res, error))
      }
    }
    try {
      const result = handler(req, res)
      if (result instanceof Promise) result.catch((error) => fail(res, error))
    } catch (error) {
      fail(res, error)
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(env.port, env.host, () => resolve())
  })
  site = await provideSitePayload(payload)
  const instance = site
  credentials = new CredentialCheck({
    jwtKey: site.secret,
    findToken: async (publicId) => {
      const [row] = await query<{ secretHash: string | null; expiresAt: Date | null; userId: number | null }>(
        instance,
        'select secret_hash as "secretHash", expires_at as "expiresAt", user_id as "userId" from access_tokens where public_id = $1 limit 1',
        [publicId],
      )
      return row
    },
  })
  ;[nextHandler, astro] = await Promise.all([loadNextHandler(env), loadAstroHandler()])
  ops.started(site, cache)

  const close = async () => {
    ops.drain() // /readyz answers 503 at once; in-flight requests finish (at most 5 s more)
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeIdleConnections()
      setTimeout(() => server.closeAllConnections(), 5_000).unref()
    })
    cache?.close()
    credentials?.close()
    await listener.stop()
  }
  return { server, url: env.baseUrl, close, cache }
}
