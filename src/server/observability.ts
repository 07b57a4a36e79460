/**
 * What operators read from a web process (issue 32 §3):
 *
 *  - every request: an `x-request-id` (a sane incoming one is kept, else one
 *    is made), one JSON log line when it ends (method, route kind, status,
 *    duration, cache outcome, request id) and the request metrics;
 *  - GET /metrics: Prometheus text (src/lib/metrics.ts), for
 *    `Authorization: Bearer <METRICS_TOKEN>` or a loopback peer that came
 *    through no proxy;
 *  - GET /readyz: 200 when the database answers, every committed migration is
 *    applied and the queue is running; 503 otherwise, and from the moment the
 *    process begins to shut down, so a load balancer stops sending to it.
 *
 * Route kinds, never raw paths, label the metrics and the log lines: their
 * number is bounded, and a path can carry a token (a reset link) or a name.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'

import type { Payload } from 'payload'

import { queueOf } from '../../jobs/queue'
import type { Env } from '../lib/env'
import { FLUSH_MS, logRequest } from '../lib/jsonLog'
import { collectedMetric, metrics } from '../lib/metrics'
import { poolIfConnected } from '../lib/pool'
import { processShared } from '../lib/processShared'
import { cacheOutcomeOf, type RenderCache } from './renderCache'

export type RouteKind =
  | 'health'
  | 'ready'
  | 'metrics'
  | 'api'
  | 'graphql'
  | 'admin'
  | 'next-asset'
  | 'oauth'
  | 'static'
  | 'article'
  | 'feed'
  | 'sitemap'
  | 'search'
  | 'page'

/** The kind of a request's route, from its path and who owns it: a handful of values, whatever the URL. */
export function routeKind(url: string | undefined, isStaticFile: (pathname: string) => boolean = () => false): RouteKind {
  const path = (url ?? '/').split('?')[0]!
  if (path === '/healthz') return 'health'
  if (path === '/readyz') return 'ready'
  if (path === '/metrics') return 'metrics'
  if (path === '/api/graphql' || path.startsWith('/api/graphql')) return 'graphql'
  if (path === '/api' || path.startsWith('/api/')) return 'api'
  if (path === '/admin' || path.startsWith('/admin/')) return 'admin'
  if (path.startsWith('/_next/') || path.startsWith('/_astro/')) return 'next-asset'
  if (path.startsWith('/login/') && path.length > '/login/'.length) return 'oauth'
  if (isStaticFile(path)) return 'static'
  if (path.startsWith('/articles/')) return 'article'
  if (/^\/(feed|rss|atom)(\.xml)?$|\/feed(\.xml)?$/.test(path)) return 'feed'
  if (path.startsWith('/sitemap')) return 'sitemap'
  if (path === '/search' || path.startsWith('/search/')) return 'search'
  return 'page'
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/

/** The request's id: the caller's (a proxy's, a client's) when it is a short plain token, else a new UUID. */
const DEFERRED_ID = Symbol('inkwell.requestId')
type DeferredId = ServerResponse & { [DEFERRED_ID]?: string }

/** The request id `observe` held back for a response's one writeHead, handed over once (the render cache's hit). */
export function takeRequestId(res: ServerResponse): string | undefined {
  const id = (res as DeferredId)[DEFERRED_ID]
  if (id !== undefined) (res as DeferredId)[DEFERRED_ID] = undefined
  return id
}

/** Any other answer to such a request: its held-back id is set now, as every response carries one. */
export function sendRequestId(res: ServerResponse): void {
  const id = takeRequestId(res)
  if (id !== undefined && !res.headersSent) res.setHeader('x-request-id', id)
}

export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id']
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID()
}

/** A request that ended: what its metrics and its log line are made of. */
type Finished = { method: string | undefined; route: RouteKind; status: number; seconds: number; cache: string | undefined; requestId: string; at: number }

/** How long a finished request may wait for its metrics and log line (as long as a log line waits to be written), and how many may wait. */
const BATCH_MS = FLUSH_MS
const BATCH_MAX = 1024

/**
 * The requests that ended since the last batch. Their metrics and log lines are made together every
 * BATCH_MS (or BATCH_MAX requests), before a scrape of /metrics and at exit, not one by one in each
 * response's close listener: the same work in one tight loop costs the hit path markedly less (a
 * cached article under wrk, two builds measured in turn ten times, both ways round: 43.8 → 34.5 and
 * 41.2 → 34.0 µs of CPU per request;
 * docs/PERFORMANCE.md). Each line keeps the time its request ended. One batch per process.
 */
const finished = processShared('finishedRequests', () => {
  let pending: Finished[] = []
  let timer: NodeJS.Timeout | undefined
  const drain = () => {
    if (timer) clearTimeout(timer)
    timer = undefined
    const batch = pending
    pending = []
    if (batch.length === 0) return
    const m = metrics()
    for (const r of batch) {
      m.requests.inc({ route: r.route, method: r.method ?? 'GET', status: statusClass(r.status) })
      m.requestSeconds.observe({ route: r.route }, r.seconds)
      logRequest({ method: r.method, route: r.route, status: r.status, durationMs: Math.round(r.seconds * 1000), cache: r.cache, requestId: r.requestId, at: r.at })
    }
  }
  // Before the log's own exit handler (src/lib/jsonLog.ts) writes what is waiting: these lines are among it.
  process.prependListener('exit', drain)
  return {
    add(request: Finished): void {
      pending.push(request)
      if (pending.length >= BATCH_MAX) drain()
      else timer ??= setTimeout(drain, BATCH_MS).unref()
    },
    drain,
  }
})

function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`
}

function cacheOutcome(res: ServerResponse): string | undefined {
  const noted = cacheOutcomeOf(res)
  if (noted !== undefined) return noted
  const value = res.getHeader('x-cache')
  return typeof value === 'string' ? value.toLowerCase() : undefined
}

function isLoopback(address: string | undefined): boolean {
  return !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))
}

/** The same length-independent comparison for every token check. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Who may read /metrics: the holder of METRICS_TOKEN (as a Bearer token), or
 * a loopback peer whose request carries no forwarding header (a reverse proxy
 * on the same host adds one, so the public never reads metrics through it).
 */
export function mayReadMetrics(req: IncomingMessage, token: string | undefined): boolean {
  const authorization = req.headers.authorization ?? ''
  if (token && authorization.startsWith('Bearer ') && sameSecret(authorization.slice('Bearer '.length).trim(), token)) return true
  const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined || req.headers['x-real-ip'] !== undefined
  return isLoopback(req.socket.remoteAddress) && !forwarded
}

export type ReadinessCheck = { database: boolean; migrations: boolean | 'push'; queue: boolean }

export type Operations = ReturnType<typeof operations>

export function operations(env: Pick<Env, 'metricsToken' | 'dbPush'>) {
  let payload: Payload | undefined
  let draining = false
  let lastCheck: { at: number; result: ReadinessCheck } | undefined
  let migrationNames: string[] | undefined

  async function checkReadiness(): Promise<ReadinessCheck> {
    if (lastCheck && Date.now() - lastCheck.at < 1000) return lastCheck.result
    const result: ReadinessCheck = { database: false, migrations: false, queue: false }
    const pool = payload && poolIfConnected(payload)
    if (pool) {
      try {
        const connecting = pool.connect()
        // A connection that arrives after the timeout goes back to the pool, not astray.
        const client = await withTimeout(connecting, 2000).catch((error) => {
          void connecting.then((late) => late.release()).catch(() => {})
          throw error
        })
        try {
          await client.query('select 1')
          result.database = true
          if (env.dbPush) result.migrations = 'push'
          else {
            migrationNames ??= (await import('../migrations')).migrations.map((m) => m.name)
            const { rows } = await client.query<{ name: string }>(`select name from payload_migrations`)
            const applied = new Set(rows.map((r) => r.name))
            result.migrations = migrationNames.every((name) => applied.has(name))
          }
        } finally {
          client.release()
        }
      } catch {
        // Not reachable (or no migrations table): not ready.
      }
    }
    try {
      const queue = queueOf(payload!)
      result.queue = queue.mode === 'sync' || Boolean(queue.boss)
    } catch {
      result.queue = false
    }
    lastCheck = { at: Date.now(), result }
    return result
  }

  async function readyz(res: ServerResponse): Promise<void> {
    const checks = draining ? undefined : await checkReadiness()
    const ready = Boolean(checks && checks.database && checks.migrations && checks.queue)
    const status = draining ? 'stopping' : !payload ? 'starting' : ready ? 'ready' : 'not ready'
    res.writeHead(ready ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...(ready ? {} : { 'Retry-After': '5' }) })
    res.end(JSON.stringify({ status, checks }))
  }

  async function serveMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!mayReadMetrics(req, env.metricsToken)) {
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
      return void res.end('Metrics need METRICS_TOKEN (Authorization: Bearer …) or a loopback request.\n')
    }
    finished.drain()
    const { registry } = metrics()
    const body = await registry.metrics()
    res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' })
    res.end(body)
  }

  return {
    /** Tags the request with its id, and counts and logs it when the response ends. */
    observe(req: IncomingMessage, res: ServerResponse, isStaticFile?: (pathname: string) => boolean, { deferHeader = false } = {}): void {
      const started = performance.now()
      const id = requestIdOf(req)
      const kind = routeKind(req.url, isStaticFile)
      // A page the render cache may answer sends all its headers in one writeHead: a header set
      // beforehand would put every one of them through setHeader (Node's slow path), so its id waits.
      if (deferHeader) (res as DeferredId)[DEFERRED_ID] = id
      else res.setHeader('x-request-id', id)
      // While draining, keep-alive connections are closed after their current response.
      if (draining) res.setHeader('Connection', 'close')
      // 'close' follows 'finish' on every response (and is the only one when the client goes away first): one listener.
      res.on('close', () => {
        const seconds = (performance.now() - started) / 1000
        const status = res.writableFinished ? res.statusCode : 499 // 499: the client went away first
        finished.add({ method: req.method, route: kind, status, seconds, cache: cacheOutcome(res), requestId: id, at: Date.now() })
      })
    },

    /**
     * A request answered whole before anything else looked at it (the render cache's door, src/server/index.ts),
     * counted and logged now: its status is known, so it needs no listener. `started`: performance.now() when it came.
     */
    answered(req: IncomingMessage, res: ServerResponse, started: number, requestId: string, cache: 'hit'): void {
      finished.add({ method: req.method, route: routeKind(req.url), status: res.statusCode, seconds: (performance.now() - started) / 1000, cache, requestId, at: Date.now() })
    },

    /** Whether the process is shutting down (observe then closes each connection after its response). */
    get draining(): boolean {
      return draining
    },

    /** Answers /readyz and /metrics; false for any other path. */
    answers(req: IncomingMessage, res: ServerResponse, onError: (error: unknown) => void): boolean {
      const path = (req.url ?? '/').split('?')[0]
      if (path === '/readyz' || path === '/metrics') sendRequestId(res)
      if (path === '/readyz') return void readyz(res).catch(onError), true
      if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) return void serveMetrics(req, res).catch(onError), true
      return false
    },

    /** Once Payload is up: readiness can be checked, and the gauges read it (and the render cache) at each scrape. */
    started(site: Payload, cache: RenderCache | undefined): void {
      payload = site
      lastCheck = undefined
      registerGauges(site, cache)
    },

    /** The process is shutting down: /readyz answers 503 from now on and connections close after their response. */
    drain(): void {
      draining = true
    },
  }
}

/**
 * `npm run worker`'s own small HTTP listener (WORKER_METRICS_PORT): /metrics
 * (the same access rule), /healthz and /readyz, nothing else. Requests to it
 * are not logged: they are scrapes and probes.
 */
export async function serveWorkerOperations(env: Pick<Env, 'metricsToken' | 'dbPush' | 'host'>, port: number, payload: Payload): Promise<{ ops: Operations; close: () => Promise<void> }> {
  const ops = operations(env)
  ops.started(payload, undefined)
  const server = http.createServer((req, res) => {
    if ((req.url ?? '/').split('?')[0] === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
      return void res.end(JSON.stringify({ status: 'ok' }))
    }
    if (ops.answers(req, res, () => res.destroy())) return
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
    res.end('Not found\n')
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, env.host, () => resolve())
  })
  return { ops, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref())])
}

function registerGauges(payload: Payload, cache: RenderCache | undefined): void {
  collectedMetric('counter', 'inkwell_render_cache_hits_total', 'Pages served from the render cache', [], (set) => set({}, cache?.stats.hits ?? 0))
  collectedMetric('counter', 'inkwell_render_cache_misses_total', 'Cacheable pages rendered because they were not in the render cache', [], (set) => set({}, cache?.stats.misses ?? 0))
  collectedMetric('counter', 'inkwell_render_cache_stale_total', 'Pages answered from their last good copy because their render failed (stale if error)', [], (set) => set({}, cache?.stats.staleHits ?? 0))
  collectedMetric('gauge', 'inkwell_render_cache_bytes', 'Bytes held by the render cache', [], (set) => set({}, cache?.size.bytes ?? 0))
  collectedMetric('gauge', 'inkwell_render_cache_entries', 'Pages held by the render cache', [], (set) => set({}, cache?.size.entries ?? 0))
  collectedMetric('gauge', 'inkwell_db_pool_connections', 'Connections of the PostgreSQL pool, by state (total, idle, waiting: requests waiting for one)', ['state'], (set) => {
    const pool = poolIfConnected(payload)
    if (!pool) return
    set({ state: 'total' }, pool.totalCount)
    set({ state: 'idle' }, pool.idleCount)
    set({ state: 'waiting' }, pool.waitingCount)
  })
  collectedMetric('gauge', 'inkwell_queue_jobs', 'Jobs not yet done, by queue and state (created, retry, active); dead-lettered jobs are in the `<name>.dead` queues', ['queue', 'state'], async (set) => {
    const pool = poolIfConnected(payload)
    let mode: string
    try {
      mode = queueOf(payload).mode
    } catch {
      return
    }
    if (!pool || mode !== 'pgboss') return
    const { rows } = await withTimeout(
      pool.query<{ name: string; state: string; n: number }>(`select name, state::text as state, count(*)::int as n from pgboss.job where state in ('created', 'retry', 'active') group by 1, 2`),
      2000,
    ).catch(() => ({ rows: [] as { name: string; state: string; n: number }[] }))
    for (const row of rows) set({ queue: row.name, state: row.state }, row.n)
  })
}
