/**
 * The reader site's responses: a render cache for anonymous page views, and
 * compression for every page (cached or not).
 *
 * Only pages listed in PAGES are cached, keyed on their path plus the query
 * parameters they declare (with valid values); other parameters are dropped
 * before the page renders, so `?utm=…` or random strings neither miss nor
 * evict. A miss renders the page in-process through Astro's handler (inside
 * a render context, see src/lib/renderContext.ts) while streaming it to the
 * first reader; concurrent misses for one key share that render. It is kept
 * only when it is a 200 that declared its dependencies (`x-cache-tags`), set
 * no cookie, swallowed no error and saw no purge of its tags meanwhile. Kept
 * pages carry brotli and gzip variants, compressed once when stored.
 *
 * Article views are counted here and only here, for every page served,
 * cached or not: an article page declares its article (`x-inkwell-views`),
 * and each 200 answer of it to a GET a person makes (see shouldCountView) is
 * one view. The shown count is the one at render time, refreshed every
 * VIEW_COUNT_REFRESH_MS on a kept page, because a number spliced into every
 * response would rule out compressing once.
 *
 * Stale if error (issue 32 §4): a purged (or expired) page's last good copy is
 * kept aside, and when its next render fails (5xx: the database is away) that
 * copy is served instead, marked `x-cache: STALE` with `Age` and
 * `Warning: 111`, until a render succeeds again. A failed render with no copy
 * to fall back on answers 503 with `Retry-After` when the database does not
 * answer (`databaseAway`), so clients retry, instead of 500.
 */
import { createHash } from 'node:crypto'
import { EventEmitter } from 'node:events'
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { promisify } from 'node:util'
import zlib from 'node:zlib'

import { LRUCache } from 'lru-cache'

import { onInvalidate } from '../lib/cacheBus'
import { DATABASE_RETRY_AFTER_SECONDS } from '../lib/databaseOutage'
import { requestedLanguage } from '../lib/i18n/negotiate'
import { runRender, type RenderState } from '../lib/renderContext'
import { shouldCountView, type ViewCounter } from '../plugins/activity/views'

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown

const TAGS_HEADER = 'x-cache-tags'
const VIEWS_HEADER = 'x-inkwell-views'
const SESSION_COOKIE = /(?:^|;\s*)payload-token=/
const INTERNAL_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', TAGS_HEADER, VIEWS_HEADER])
export const VIEW_COUNT_REFRESH_MS = 30_000

// ---- article views --------------------------------------------------------

/** The article a rendered page is a view of: declared by the page in `x-inkwell-views`. */
function viewedArticle(headers: OutgoingHttpHeaders): number | undefined {
  const id = Number(headerValue(headers[VIEWS_HEADER]))
  return Number.isInteger(id) && id > 0 ? id : undefined
}

/** The one place a served page view is counted: a 200 of an article page, to a person's GET. */
function countView(views: ViewCounter | undefined, req: IncomingMessage, status: number, articleId: number | undefined): void {
  if (views && articleId && status === 200 && shouldCountView(req)) views.hit(articleId)
}

// ---- which pages, which parameters --------------------------------------

const PAGE_NUMBER = /^[1-9]\d{0,4}$/
const ID = /^\d{1,10}$/
/** The reader site's public pages and the query parameters each one reads (mirror of frontend/src/pages). */
const PAGES: { path: RegExp; params: Record<string, RegExp> }[] = [
  // p, page_id, cat, tag, author: an imported WordPress site's old addresses of the home page (`/?p=12`), which the
  // reader site answers with a 301 (src/plugins/import): kept in the key so they never get the cached home page.
  { path: /^\/$/, params: { page: PAGE_NUMBER, sort: /^replied$/, p: ID, page_id: ID, cat: ID, tag: /^[\w-]{1,100}$/, author: ID } },
  { path: /^\/(?:articles\/\d{1,10}\/[^/]*|categories\/[^/]+|tags\/[^/]+|users\/\d{1,10})\/?$/, params: { page: PAGE_NUMBER } },
  { path: /^\/(?:links|rss|atom\.xml|feed\.json|sitemap\.xml|sitemaps\/\d{1,6}\.xml|robots\.txt)$/, params: {} },
]

/** The cache key of a URL: its path and its declared, valid parameters in a fixed order; null for pages not cached. */
export function cacheKeyOf(url: string): string | null {
  const q = url.indexOf('?')
  const path = q < 0 ? url : url.slice(0, q)
  const page = PAGES.find((p) => p.path.test(path))
  if (!page) return null
  if (q < 0) return path
  const search = new URLSearchParams(url.slice(q + 1))
  const kept: string[] = []
  for (const [name, valid] of Object.entries(page.params)) {
    const value = search.get(name)
    if (value !== null && valid.test(value)) kept.push(`${name}=${value}`)
  }
  return kept.length ? `${path}?${kept.join('&')}` : path
}

/**
 * The key of a page in an interface language (src/lib/i18n/negotiate.ts):
 * the URL's key, then a space (never in a request target) and the language;
 * the URL's key alone when the request asks for no supported language (the
 * site's default). So the key space is at most three variants of each page
 * (one for feeds and sitemaps, which have no interface words).
 */
export function withLanguage(key: string, lang: string | null): string {
  return lang && !LANGUAGE_NEUTRAL.test(key) ? `${key} ${lang}` : key
}
/** Feeds, sitemaps and robots.txt say the same in every interface language: one variant. */
const LANGUAGE_NEUTRAL = /^\/(?:rss|atom\.xml|feed\.json|sitemap\.xml|sitemaps\/\d+\.xml|robots\.txt)$/

/** The URL a key names (without its language). */
export function urlOfKey(key: string): string {
  const space = key.indexOf(' ')
  return space < 0 ? key : key.slice(0, space)
}

/**
 * What a not-found answer for a cached page's key depends on: the tags whose
 * purge means the thing it names may exist now (an article or user id is
 * purged by any change of that id, a tag or category slug by any change of
 * a tag or category, a deep page by any list change), and the layout. Null
 * for keys whose 404 is not kept.
 */
export function notFoundTagsOf(languageKey: string): string[] | null {
  const key = urlOfKey(languageKey)
  const q = key.indexOf('?')
  const path = q < 0 ? key : key.slice(0, q)
  const paged = q >= 0 && /(?:^|&)page=/.test(key.slice(q + 1))
  const deep = paged ? ['list'] : []
  let m: RegExpExecArray | null
  if ((m = /^\/articles\/(\d{1,10})\//.exec(path))) return [`article:${m[1]}`, 'settings', ...deep]
  if ((m = /^\/users\/(\d{1,10})\/?$/.exec(path))) return [`user:${m[1]}`, 'settings', ...deep]
  if (/^\/tags\/[^/]+\/?$/.test(path)) return ['tags', 'settings', ...deep]
  if (/^\/categories\/[^/]+\/?$/.test(path)) return ['categories', 'settings', ...deep]
  if (path === '/' && paged) return ['list', 'settings']
  return null
}

/** A kept not-found answer is also dropped after this long, whatever was purged. */
export const NOT_FOUND_TTL_MS = 60_000

/** True for the requests the cache may answer: anonymous reads. */
export function isCacheable(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false
  // A page for a signed-in visitor (session cookie or access token) is theirs alone.
  return !SESSION_COOKIE.test(req.headers.cookie ?? '') && !req.headers.authorization
}

// ---- compression ----------------------------------------------------------

export type Encoding = 'br' | 'gzip' | 'identity'
const COMPRESSIBLE = /^(?:text\/|application\/(?:xml|json|rss\+xml|atom\+xml|feed\+json|ld\+json|javascript)|image\/svg\+xml)/

/** Answers by Accept-Encoding value: browsers send a handful of distinct ones, parsed once each (bounded). */
const negotiated = new Map<string, Encoding>()

/** The best encoding the client accepts (brotli, then gzip), honouring q=0. */
export function negotiateEncoding(acceptEncoding: string | string[] | undefined): Encoding {
  if (acceptEncoding === undefined) return 'identity'
  if (typeof acceptEncoding !== 'string') return parseAcceptEncoding(acceptEncoding)
  let answer = negotiated.get(acceptEncoding)
  if (answer === undefined) {
    answer = parseAcceptEncoding(acceptEncoding)
    if (negotiated.size >= 256) negotiated.clear()
    negotiated.set(acceptEncoding, answer)
  }
  return answer
}

function parseAcceptEncoding(acceptEncoding: string | string[] | undefined): Encoding {
  const accepted = new Map<string, number>()
  for (const part of String(acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    accepted.set(name, q ? Number(q.slice(2)) : 1)
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0
  if (ok('br')) return 'br'
  if (ok('gzip')) return 'gzip'
  return 'identity'
}

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

function brotliOptions(size: number, streaming: boolean): zlib.BrotliOptions {
  // Stored pages are compressed once, so harder; streamed ones per request, so fast.
  const quality = streaming ? 4 : size > 1_000_000 ? 5 : 9
  const params: Record<number, number> = { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size }
  if (!streaming) params[zlib.constants.BROTLI_PARAM_LGWIN] = windowBitsFor(size)
  return { params }
}

/**
 * A window no larger than the page (2^10 to the default 2^22): a window past the input's end finds
 * nothing more to refer to, but at quality 9 the encoder sizes its hash tables by it. For an 11 KB
 * article the default window made each store 4.3 ms of CPU and ~30 MB of native memory, which a
 * libuv thread's malloc arena then kept (four threads: the web process's RSS rose ~110 MB in steps,
 * one per article refresh); a fitted one takes 0.18 ms for the same bytes ± 1 (docs/PERFORMANCE.md).
 */
export function windowBitsFor(size: number): number {
  const { BROTLI_MIN_WINDOW_BITS, BROTLI_DEFAULT_WINDOW } = zlib.constants
  return Math.max(BROTLI_MIN_WINDOW_BITS, Math.min(BROTLI_DEFAULT_WINDOW, Math.ceil(Math.log2(Math.max(1, size)))))
}

function headerValue(v: string | string[] | number | undefined): string | undefined {
  return v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : String(v)
}

function addVary(headers: OutgoingHttpHeaders): void {
  const vary = headerValue(headers.vary)
  if (!vary) headers.vary = 'Accept-Encoding'
  else if (!/accept-encoding/i.test(vary)) headers.vary = `${vary}, Accept-Encoding`
}

/**
 * Opens a response that streams through brotli or gzip when the content type
 * is text-like and the client accepts one; returns where to write the body.
 */
function openStream(req: IncomingMessage, res: ServerResponse, status: number, headers: OutgoingHttpHeaders, extra: OutgoingHttpHeaders = {}) {
  const out: OutgoingHttpHeaders = { ...headers, ...extra }
  const type = headerValue(out['content-type']) ?? ''
  const encoding = COMPRESSIBLE.test(type) && !out['content-encoding'] && status !== 204 && status !== 304 ? negotiateEncoding(req.headers['accept-encoding']) : 'identity'
  if (COMPRESSIBLE.test(type)) addVary(out)
  if (encoding === 'identity' || req.method === 'HEAD') {
    res.writeHead(status, out)
    return { write: (b: Buffer) => void res.write(b), end: () => void res.end() }
  }
  delete out['content-length']
  out['content-encoding'] = encoding
  res.writeHead(status, out)
  const zip = encoding === 'br' ? zlib.createBrotliCompress(brotliOptions(64 * 1024, true)) : zlib.createGzip({ level: 6 })
  zip.pipe(res)
  res.once('close', () => zip.destroy())
  return { write: (b: Buffer) => void zip.write(b), end: () => void zip.end() }
}

// ---- capturing a render ------------------------------------------------------

/**
 * The response object Astro's handler writes to: it keeps the status,
 * headers and body, and passes each part on as it comes (to the first
 * reader). Implements the part of ServerResponse that Astro's node adapter uses.
 */
class CapturedResponse extends EventEmitter {
  statusCode = 200
  statusMessage = ''
  headersSent = false
  writableEnded = false
  destroyed = false
  readonly headers: OutgoingHttpHeaders = {}
  readonly chunks: Buffer[] = []
  readonly done: Promise<void>
  private finish!: () => void

  constructor(
    readonly req: IncomingMessage,
    private onHead: (status: number, headers: OutgoingHttpHeaders) => void,
    private onChunk: (chunk: Buffer) => void,
  ) {
    super()
    this.done = new Promise((resolve) => (this.finish = resolve))
  }

  setHeader(name: string, value: string | number | readonly string[]) {
    this.headers[name.toLowerCase()] = value as string
    return this
  }
  getHeader(name: string) {
    return this.headers[name.toLowerCase()]
  }
  removeHeader(name: string) {
    delete this.headers[name.toLowerCase()]
  }
  writeHead(status: number, a?: unknown, b?: unknown) {
    const given = (typeof a === 'string' ? b : a) as OutgoingHttpHeaders | undefined
    for (const [name, value] of Object.entries(given ?? {})) if (value !== undefined) this.headers[name.toLowerCase()] = value
    this.statusCode = status
    this.headersSent = true
    this.onHead(status, this.headers)
    return this
  }
  write(chunk: string | Uint8Array, encoding?: unknown, cb?: () => void) {
    if (!this.headersSent) this.writeHead(this.statusCode)
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    this.chunks.push(Buffer.from(buf))
    this.onChunk(buf)
    if (typeof encoding === 'function') (encoding as () => void)()
    else cb?.()
    return true
  }
  end(chunk?: unknown, encoding?: unknown, cb?: () => void) {
    if (this.writableEnded) return this
    if (typeof chunk === 'function') cb = chunk as () => void
    else if (chunk !== undefined && chunk !== null) this.write(chunk as string | Uint8Array)
    if (!this.headersSent) this.writeHead(this.statusCode)
    if (typeof encoding === 'function') cb = encoding as () => void
    this.writableEnded = true
    cb?.()
    this.finish()
    this.emit('finish')
    this.emit('close')
    return this
  }
  destroy() {
    this.destroyed = true
    this.end()
    return this
  }
}

// ---- the cache ----------------------------------------------------------------

type Entry = {
  status: number
  headers: Record<string, string | string[]>
  body: Buffer
  br?: Buffer
  gzip?: Buffer
  tags: string[]
  articleId?: number
  expiresAt?: number
  /** When it was rendered (ms): a stale answer says its `Age`. */
  renderedAt: number
  /**
   * The response headers of a hit, by encoding (and with the security headers or not): made on the first hit, not on
   * every one. A flat list of names and values whose last pair is the request id's (see writeWhole).
   */
  hitHeaders?: Partial<Record<`${Encoding}${'' | '+'}`, string[]>>
}

/** `startedAt`: the purge sequence number when the render began; `failed`: a 5xx, answered from a stale copy if any. */
type Rendered = { entry: Entry; shareable: boolean; startedAt: number; failed: boolean }

/** How a page is answered: from the cache, rendered now, or from its last good copy because the render failed. */
type Outcome = 'HIT' | 'MISS' | 'STALE'
const OUTCOME_IN_LOG = { HIT: 'hit', MISS: 'miss', STALE: 'stale' } as const

const CACHE_OUTCOME = Symbol('inkwell.cacheOutcome')
type NotedOutcome = ServerResponse & { [CACHE_OUTCOME]?: (typeof OUTCOME_IN_LOG)[Outcome] }

/**
 * How the cache answered a response, for its log line (src/server/observability.ts). A hit's
 * headers go out in one `writeHead(status, object)`, which Node writes without keeping them,
 * so `getHeader('x-cache')` cannot tell; undefined for a response the cache did not write.
 */
export function cacheOutcomeOf(res: ServerResponse): 'hit' | 'miss' | 'stale' | undefined {
  return (res as NotedOutcome)[CACHE_OUTCOME]
}

/** Notes how a response was answered from memory outside the page cache (a kept share card: src/plugins/content/keptCards.ts). */
export function noteCacheOutcome(res: ServerResponse, outcome: 'hit'): void {
  ;(res as NotedOutcome)[CACHE_OUTCOME] = outcome
}

/** The Warning of a stale answer (RFC 7234 §5.5.1, "Revalidation Failed"). */
export const STALE_WARNING = '111 - "Revalidation Failed"'

export type RenderCacheOptions = {
  views?: ViewCounter
  maxEntries: number
  maxBytes: number
  /** Not-found answers kept (a separate, smaller budget: a flood of random URLs must not evict real pages). */
  maxNotFound?: number
  /**
   * The reader site's security headers (securityHeaders.ts), for requests whose caller left them to the
   * cache (`serve(…, { securityHeaders: true })`): a hit writes them with the page's in one writeHead
   * (Node validates each header once) instead of one setHeader each before it.
   */
  securityHeaders?: [name: string, value: string][]
  /**
   * Whether the database is unreachable now (a memoized probe): asked only after a render failed with
   * a 5xx, to answer 503 with Retry-After rather than 500 when no stale copy can stand in.
   */
  databaseAway?: () => Promise<boolean>
}

export class RenderCache {
  private entries: LRUCache<string, Entry>
  private notFound: LRUCache<string, Entry>
  /** Last good copies of purged or expired pages, served only when their render fails (half the cache's byte budget). */
  private stale: LRUCache<string, Entry>
  /** The compressed variants of not-found bodies, by body: every random URL of a kind shares one body, compressed once. */
  private variants = new LRUCache<string, { br: Buffer; gzip: Buffer }>({ max: 64 })
  private keysByTag = new Map<string, Set<string>>()
  private inflight = new Map<string, Promise<Rendered>>()
  private purges: { seq: number; tags: Set<string> }[] = []
  private seq = 0
  private unsubscribe: () => void
  stats = { hits: 0, misses: 0, purged: 0, refused: 0, notFoundHits: 0, staleHits: 0 }

  constructor(private options: RenderCacheOptions) {
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      // A page larger than an eighth of the budget would flush too much else.
      maxEntrySize: Math.max(1, Math.floor(options.maxBytes / 8)),
      sizeCalculation: (e) => e.body.length + (e.br?.length ?? 0) + (e.gzip?.length ?? 0) + 512,
      dispose: (entry, key) => this.untag(key, entry.tags),
    })
    this.stale = new LRUCache<string, Entry>({
      max: options.maxEntries,
      maxSize: Math.max(1, Math.floor(options.maxBytes / 2)),
      maxEntrySize: Math.max(1, Math.floor(options.maxBytes / 8)),
      sizeCalculation: (e) => e.body.length + (e.br?.length ?? 0) + (e.gzip?.length ?? 0) + 512,
    })
    this.notFound = new LRUCache<string, Entry>({
      max: options.maxNotFound ?? 10_000,
      ttl: NOT_FOUND_TTL_MS,
      dispose: (entry, key) => this.untag(key, entry.tags),
    })
    this.unsubscribe = onInvalidate((tags) => this.invalidate(tags))
  }

  get size() {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize, notFound: this.notFound.size }
  }

  /** Resolves once no render or compression is in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight.values()])
  }

  close() {
    this.unsubscribe()
    this.entries.clear()
    this.notFound.clear()
    this.stale.clear()
  }

  /** Purges every page tagged with any of `tags` ('*' purges all). */
  invalidate(tags: string[]) {
    this.seq++
    this.purges.push({ seq: this.seq, tags: new Set(tags) })
    if (this.purges.length > 1000) this.purges.splice(0, this.purges.length - 1000)
    if (tags.includes('*')) {
      this.stats.purged += this.entries.size + this.notFound.size
      for (const [key, entry] of this.entries.entries()) this.stale.set(key, entry)
      this.entries.clear()
      this.notFound.clear()
      return
    }
    for (const tag of tags) {
      for (const key of [...(this.keysByTag.get(tag) ?? [])]) {
        const good = this.entries.peek(key)
        if (good) this.stale.set(key, good)
        if (this.entries.delete(key)) this.stats.purged++
        if (this.notFound.delete(key)) this.stats.purged++
      }
    }
  }

  /**
   * Serves an anonymous GET/HEAD of a cached page (`key` from cacheKeyOf).
   * `securityHeaders`: the caller has not set them, the cache writes them (see the option).
   */
  async serve(req: IncomingMessage, res: ServerResponse, key: string, handler: Handler, { securityHeaders = false, requestId }: { securityHeaders?: boolean; requestId?: string } = {}): Promise<void> {
    req.url = urlOfKey(key) // the page renders exactly what the key names (its language comes from the same headers)
    const secure = securityHeaders && this.options.securityHeaders ? this.options.securityHeaders : undefined
    const cached = this.entries.get(key)
    if (cached && !(cached.expiresAt && cached.expiresAt < Date.now())) {
      this.stats.hits++
      return this.write(req, res, cached, 'HIT', secure, requestId)
    }
    // Anything but a hit sets its headers one by one anyway.
    if (requestId) res.setHeader('x-request-id', requestId)
    // An expired page (its view count to refresh) stands in if its new render fails.
    if (cached) this.stale.set(key, cached)
    const missing = this.notFound.get(key)
    if (missing) {
      this.stats.notFoundHits++
      return this.write(req, res, missing, 'HIT', secure)
    }
    if (secure) for (const [name, value] of secure) res.setHeader(name, value)
    this.stats.misses++
    const pending = this.inflight.get(key)
    if (pending) {
      const { entry, shareable, startedAt, failed } = await pending
      if (failed) return this.answerFailure(req, res, key, entry)
      // A render still in flight (its variants being compressed, say) may have begun before a
      // purge of what it shows: that answer is stale for a request that came after the purge.
      if (shareable && !this.purgedSince(startedAt, entry.tags)) return this.write(req, res, entry, 'MISS')
      return renderPage(req, res, handler, { views: this.options.views, failure: (failed) => this.answerFailure(req, res, key, failed), extra: { 'x-cache': 'MISS' } })
    }
    const rendering = this.renderAndStream(req, res, key, handler).finally(() => this.inflight.delete(key))
    this.inflight.set(key, rendering)
    await rendering
  }

  /**
   * A render failed (5xx): the page's last good copy if there is one (stale), else the failure itself,
   * as 503 with Retry-After when the database is away.
   */
  private async answerFailure(req: IncomingMessage, res: ServerResponse, key: string, failed: Failed): Promise<void> {
    const stale = this.stale.get(key)
    if (stale) {
      this.stats.staleHits++
      return this.write(req, res, stale, 'STALE')
    }
    await answerFailed(req, res, failed, this.options.databaseAway, { 'x-cache': 'MISS' })
  }

  /**
   * The door's answer (src/server/index.ts) to a plain anonymous read, with nothing looked at before it:
   * its URL is taken as a key as it stands (cacheKeyOf gives every kept key back unchanged, so a URL
   * that is not one finds nothing), in the language its Accept-Language asks for. A kept, fresh page
   * whose variant for this encoding is made is written whole, with the site's security headers and
   * `requestId`, and true returned; anything else writes nothing and returns false (the usual way).
   */
  answerAtDoor(req: IncomingMessage, res: ServerResponse, requestId: string): boolean {
    const entry = this.entries.get(withLanguage(req.url!, requestedLanguage(undefined, req.headers['accept-language'])))
    if (entry === undefined || (entry.expiresAt !== undefined && entry.expiresAt < Date.now())) return false
    if (!this.writeWhole(req, res, entry, 'HIT', this.options.securityHeaders, requestId)) return false
    this.stats.hits++
    return true
  }

  /** `requestId`: not set on the response yet (see observe's deferHeader), written with the other headers. */
  private write(req: IncomingMessage, res: ServerResponse, entry: Entry, outcome: Outcome, secure?: [string, string][], requestId?: string) {
    ;(res as NotedOutcome)[CACHE_OUTCOME] = OUTCOME_IN_LOG[outcome]
    if (this.writeWhole(req, res, entry, outcome, secure, requestId)) return
    countView(this.options.views, req, entry.status, entry.articleId)
    if (requestId) res.setHeader('x-request-id', requestId)
    if (secure) for (const [name, value] of secure) res.setHeader(name, value)
    // Kept a moment ago, its variants are still being made: compress this answer on the way out.
    const stream = openStream(req, res, entry.status, entry.headers, { 'x-cache': outcome, ...(outcome === 'STALE' ? staleHeaders(entry) : {}) })
    stream.write(entry.body)
    stream.end()
  }

  /**
   * Writes a kept answer (and counts its view) in one writeHead and end, when the variant the request's
   * encoding takes is made; false, with nothing written, when it must be compressed on the way out.
   */
  private writeWhole(req: IncomingMessage, res: ServerResponse, entry: Entry, outcome: Outcome, secure?: [string, string][], requestId?: string): boolean {
    const encoding = negotiateEncoding(req.headers['accept-encoding'])
    const body = (encoding === 'br' && entry.br) || (encoding === 'gzip' && entry.gzip) || entry.body
    if (body === entry.body && encoding !== 'identity' && !entry.headers['content-encoding']) return false
    countView(this.options.views, req, entry.status, entry.articleId)
    const hit = outcome === 'HIT'
    const used: Encoding = body === entry.body ? 'identity' : encoding
    const variant = secure ? (`${used}+` as const) : used
    let flat = hit ? entry.hitHeaders?.[variant] : undefined
    if (!flat) {
      const headers: OutgoingHttpHeaders = {
        ...(secure ? Object.fromEntries(secure.map(([n, v]) => [n.toLowerCase(), v])) : {}),
        ...entry.headers,
        'content-length': String(body.length),
        'x-cache': outcome,
        ...(outcome === 'STALE' ? staleHeaders(entry) : {}),
      }
      if (entry.br || entry.gzip) addVary(headers)
      if (used !== 'identity') headers['content-encoding'] = used
      flat = flatHeaders(headers)
      if (hit) (entry.hitHeaders ??= {})[variant] = flat
    }
    // One writeHead with every header, none set before: Node's fast path. A flat list, not an object: Node reads it
    // by index, where an object's names cost a lookup each in a shape shared by no other page. Its last pair is
    // the request id's, filled in now: writeHead has made the head of the list before it returns.
    if (requestId) {
      flat[flat.length - 1] = requestId
      res.writeHead(entry.status, flat)
    } else res.writeHead(entry.status, flat.slice(0, -2))
    res.end(req.method === 'HEAD' ? undefined : body)
    return true
  }

  /** Renders for the cache while streaming to this first reader; keeps the page when it may. */
  private async renderAndStream(req: IncomingMessage, res: ServerResponse, key: string, handler: Handler): Promise<Rendered> {
    const startedAt = this.seq
    const state: RenderState = { swallowedError: false }
    let stream: ReturnType<typeof openStream> | undefined
    const captured = new CapturedResponse(
      req,
      (status, headers) => {
        // A failure is held back: the page's last good copy may answer instead (answerFailure).
        if (status < 500) stream = openStream(req, res, status, publicHeaders(headers), { 'x-cache': 'MISS' })
      },
      (chunk) => stream?.write(chunk),
    )
    await runRender(state, async () => {
      await handler(req, captured as unknown as ServerResponse)
      await captured.done
    })

    const headers = publicHeaders(captured.headers)
    const tags = (headerValue(captured.headers[TAGS_HEADER]) ?? '').split(',').map((t) => t.trim()).filter(Boolean)
    const entry: Entry = { status: captured.statusCode, headers, body: Buffer.concat(captured.chunks), tags, renderedAt: Date.now() }
    if (entry.status >= 500) {
      this.stats.refused++
      await this.answerFailure(req, res, key, entry)
      return { entry, shareable: false, startedAt, failed: true }
    }
    const articleId = viewedArticle(captured.headers)
    if (articleId) {
      entry.articleId = articleId
      entry.expiresAt = Date.now() + VIEW_COUNT_REFRESH_MS
      countView(this.options.views, req, entry.status, articleId) // this first reader's view
    }
    const setsCookie = captured.headers['set-cookie'] !== undefined
    const privateAnswer = /no-store|private/i.test(headerValue(captured.headers['cache-control']) ?? '')
    const storable = entry.status === 200 && tags.length > 0 && !setsCookie && !privateAnswer && !state.swallowedError && !captured.destroyed
    // Kept before this reader's response ends, so their next request is a hit.
    if (storable && !this.purgedSince(startedAt, tags)) this.store(key, entry)
    else if (entry.status === 200) this.stats.refused++
    // Not found (or a stale slug's redirect): kept apart, so random URLs cost a lookup, not a render.
    const missingTags = (entry.status === 404 || entry.status === 301) && !setsCookie && !privateAnswer && !state.swallowedError && !captured.destroyed ? notFoundTagsOf(key) : null
    if (missingTags && !this.purgedSince(startedAt, missingTags)) this.storeNotFound(key, { ...entry, tags: missingTags })
    stream?.end()
    if (this.entries.get(key) === entry) await this.addCompressed(key, entry)
    return { entry, shareable: !setsCookie && !privateAnswer, startedAt, failed: false }
  }

  /** Compresses a kept page once (off the event loop) and keeps the variants, unless it was purged meanwhile. */
  private async addCompressed(key: string, entry: Entry) {
    const type = headerValue(entry.headers['content-type']) ?? ''
    if (!COMPRESSIBLE.test(type) || entry.headers['content-encoding'] || entry.body.length < 256) return
    const [br, gz] = await Promise.all([brotli(entry.body, brotliOptions(entry.body.length, false)), gzip(entry.body, { level: 9 })])
    if (this.entries.peek(key) !== entry) return
    this.store(key, { ...entry, br, gzip: gz, hitHeaders: undefined })
  }

  /** Keeps a not-found answer, with its body's compressed variants (made once per distinct body). */
  private storeNotFound(key: string, entry: Entry) {
    this.entries.delete(key)
    const type = headerValue(entry.headers['content-type']) ?? ''
    if (COMPRESSIBLE.test(type) && !entry.headers['content-encoding'] && entry.body.length >= 256) {
      const digest = createHash('sha1').update(entry.body).digest('base64')
      let variants = this.variants.get(digest)
      if (!variants) {
        // A small page, compressed at once (synchronously, ~1 ms) rather than per hit.
        variants = {
          br: zlib.brotliCompressSync(entry.body, brotliOptions(entry.body.length, true)),
          gzip: zlib.gzipSync(entry.body, { level: 6 }),
        }
        this.variants.set(digest, variants)
      }
      entry = { ...entry, ...variants }
    }
    this.notFound.set(key, entry)
    for (const tag of entry.tags) {
      let keys = this.keysByTag.get(tag)
      if (!keys) this.keysByTag.set(tag, (keys = new Set()))
      keys.add(key)
    }
  }

  private store(key: string, entry: Entry) {
    this.notFound.delete(key)
    this.stale.delete(key)
    this.entries.set(key, entry)
    if (!this.entries.has(key)) return // larger than the per-entry budget
    for (const tag of entry.tags) {
      let keys = this.keysByTag.get(tag)
      if (!keys) this.keysByTag.set(tag, (keys = new Set()))
      keys.add(key)
    }
  }

  private purgedSince(seq: number, tags: string[]): boolean {
    return this.purges.some((p) => p.seq > seq && (p.tags.has('*') || tags.some((t) => p.tags.has(t))))
  }

  private untag(key: string, tags: string[]) {
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag)
      keys?.delete(key)
      if (keys?.size === 0) this.keysByTag.delete(tag)
    }
  }
}

/** Headers as Node's writeHead takes a list: name, value, name, value…; then the request id's pair, its value left to fill in. */
function flatHeaders(headers: OutgoingHttpHeaders): string[] {
  const flat: string[] = []
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const one of value) flat.push(name, one)
    else flat.push(name, String(value))
  }
  flat.push('x-request-id', '')
  return flat
}

/** The render's headers as a reader may see them (internal ones removed). */
function publicHeaders(headers: OutgoingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || INTERNAL_HEADERS.has(name)) continue
    out[name] = Array.isArray(value) ? value : String(value)
  }
  return out
}

/** The headers that mark a stale answer: how old the copy is, that revalidating it failed, and not to keep it. */
function staleHeaders(entry: Entry): OutgoingHttpHeaders {
  return { age: String(Math.max(0, Math.floor((Date.now() - entry.renderedAt) / 1000))), warning: STALE_WARNING, 'cache-control': 'no-cache' }
}

type Failed = Pick<Entry, 'status' | 'headers' | 'body'>

/** A failed render's answer: 503 with Retry-After (not to be kept) when the database is away, else as rendered. */
async function answerFailed(req: IncomingMessage, res: ServerResponse, failed: Failed, databaseAway: (() => Promise<boolean>) | undefined, extra: OutgoingHttpHeaders = {}) {
  const away = databaseAway ? await databaseAway().catch(() => false) : false
  const outage: OutgoingHttpHeaders = away ? { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS), 'cache-control': 'no-store' } : {}
  if (res.destroyed) return
  const stream = openStream(req, res, away ? 503 : failed.status, { ...failed.headers, ...outage }, extra)
  if (failed.body.length) stream.write(failed.body)
  stream.end()
}

/**
 * Renders a page through Astro without the cache (signed-in readers, forms,
 * pages not cached, or the cache turned off), streamed and compressed; an
 * article page's view is counted here (`views`), as the cache counts those it serves.
 * A failure (5xx) is answered by `failure` (the cache's stale copy), else 503 with Retry-After
 * while the database is away (`databaseAway`), else as rendered.
 */
export async function renderPage(
  req: IncomingMessage,
  res: ServerResponse,
  handler: Handler,
  {
    views,
    databaseAway,
    failure,
    extra,
  }: { views?: ViewCounter; databaseAway?: () => Promise<boolean>; failure?: (failed: Failed) => Promise<void>; extra?: OutgoingHttpHeaders } = {},
): Promise<void> {
  let stream: ReturnType<typeof openStream> | undefined
  const captured = new CapturedResponse(
    req,
    (status, headers) => {
      countView(views, req, status, viewedArticle(headers))
      if (status < 500) stream = openStream(req, res, status, publicHeaders(headers), extra)
      // Nothing is kept of a page passed on: drop each chunk once it is (a failure is held, to be answered whole).
      else captured.chunks.push = Array.prototype.push
    },
    (chunk) => stream?.write(chunk),
  )
  captured.chunks.push = () => 0
  await runRender({ swallowedError: false }, async () => {
    await handler(req, captured as unknown as ServerResponse)
    await captured.done
  })
  if (stream) return void stream.end()
  const failed = { status: captured.statusCode, headers: publicHeaders(captured.headers), body: Buffer.concat(captured.chunks) }
  await (failure ? failure(failed) : answerFailed(req, res, failed, databaseAway))
}
