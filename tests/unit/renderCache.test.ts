/**
 * The render cache in front of a handler that answers like Astro's node
 * adapter (writeHead, chunks, end), on a real HTTP server.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'

import { afterEach, describe, expect, it, vi } from 'vitest'

import { requestedLanguage } from '../../src/lib/i18n/negotiate'
import { reportSwallowedError } from '../../src/lib/renderContext'
import { BatchedViewCounter } from '../../src/plugins/activity/views'
import { cacheKeyOf, isCacheable, negotiateEncoding, notFoundTagsOf, RenderCache, renderPage, VIEW_COUNT_REFRESH_MS, windowBitsFor, withLanguage } from '../../src/server/renderCache'

type Page = { status?: number; headers?: Record<string, string>; body?: string; swallow?: boolean }

/** `rendering`: a render finishes once it settles (at once when not given). */
function astroLike(pages: Record<string, Page>, renders: string[], rendering?: Promise<void>) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    renders.push(req.url!)
    const page = pages[req.url!.split('?')[0]!] ?? { status: 404, body: 'not found' }
    await rendering
    if (page.swallow) reportSwallowedError()
    res.writeHead(page.status ?? 200, { 'content-type': 'text/html; charset=utf-8', 'x-cache-tags': 'settings,list', ...page.headers })
    const body = page.body ?? `<!doctype html><title>${req.url}</title>` + '<p>Lorem ipsum dolor sit amet. </p>'.repeat(200)
    res.write(body.slice(0, 100))
    res.end(body.slice(100))
  }
}

let servers: http.Server[] = []
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
  servers = []
})

async function serve(cache: RenderCache, handler: ReturnType<typeof astroLike>, views?: BatchedViewCounter): Promise<string> {
  const server = http.createServer((req, res) => {
    const key = isCacheable(req) ? cacheKeyOf(req.url!) : null
    void (key ? cache.serve(req, res, key, handler) : renderPage(req, res, handler, { views }))
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/**
 * Resolves once the last server started has received `count` more requests.
 * The server's handler is the first 'request' listener, so by then each
 * request has reached the cache (a miss is counted and joins any render in
 * flight synchronously).
 */
function requestsReceived(count: number): Promise<void> {
  const server = servers.at(-1)!
  let seen = 0
  return new Promise((resolve) => server.on('request', () => ++seen === count && resolve()))
}

/** A raw GET (fetch would decompress): status, headers and the bytes as sent. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
    }).on('error', reject).end()
  })
}

/** The window size (WBITS) a brotli stream declares in its first bits, RFC 7932 §9.1 (the large-window extension aside). */
function windowBitsOf(stream: Buffer): number {
  let bit = 0
  const read = (n: number) => {
    let value = 0
    for (let i = 0; i < n; i++, bit++) value |= ((stream[bit >> 3]! >> (bit & 7)) & 1) << i
    return value
  }
  if (read(1) === 0) return 16
  const n = read(3)
  if (n !== 0) return 17 + n
  const m = read(3)
  return m === 0 ? 17 : 8 + m
}

const newCache = (options: Partial<ConstructorParameters<typeof RenderCache>[0]> = {}) => new RenderCache({ maxEntries: 100, maxBytes: 8 * 1024 * 1024, ...options })

describe('cache keys', () => {
  it('keeps only the parameters a page declares, with valid values, in a fixed order', () => {
    expect(cacheKeyOf('/?utm_source=x&page=2&sort=replied')).toBe('/?page=2&sort=replied')
    expect(cacheKeyOf('/?sort=replied&page=2')).toBe('/?page=2&sort=replied')
    expect(cacheKeyOf('/?page=abc&sort=oldest&x=1')).toBe('/')
    expect(cacheKeyOf('/categories/news?page=3&random=123')).toBe('/categories/news?page=3')
    expect(cacheKeyOf('/rss?anything')).toBe('/rss')
    expect(cacheKeyOf('/login?next=/x')).toBeNull() // not a cached page: rendered as asked
  })

  it('negotiates brotli, then gzip, honouring q=0', () => {
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br')
    expect(negotiateEncoding('gzip, br;q=0')).toBe('gzip')
    expect(negotiateEncoding('identity')).toBe('identity')
    expect(negotiateEncoding(undefined)).toBe('identity')
    expect(negotiateEncoding('*')).toBe('br')
  })
})

describe('RenderCache', () => {
  it('answers repeated requests from memory, whatever unknown parameters they carry', async () => {
    const renders: string[] = []
    const cache = newCache()
    const base = await serve(cache, astroLike({ '/': {} }, renders))
    expect((await get(`${base}/`)).headers['x-cache']).toBe('MISS')
    for (let i = 0; i < 20; i++) expect((await get(`${base}/?r=${Math.random()}`)).headers['x-cache']).toBe('HIT')
    expect(renders).toEqual(['/'])
    expect(cache.size.entries).toBe(1)
    cache.close()
  })

  it('shares one render among concurrent misses', async () => {
    const renders: string[] = []
    const cache = newCache()
    let release!: () => void
    const base = await serve(cache, astroLike({ '/links': {} }, renders, new Promise((r) => (release = r))))
    // The one render lasts until all ten requests have arrived: they are concurrent misses.
    void requestsReceived(10).then(release)
    const answers = await Promise.all(Array.from({ length: 10 }, () => get(`${base}/links`)))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    expect(renders).toHaveLength(1)
    cache.close()
  })

  it('never keeps a page that set a cookie, swallowed an error, was not a 200 or declared no tags', async () => {
    const renders: string[] = []
    const cache = newCache()
    const base = await serve(
      cache,
      astroLike(
        {
          '/tags/cookie': { headers: { 'set-cookie': 'a=b' } },
          '/tags/degraded': { swallow: true },
          '/tags/untagged': { headers: { 'x-cache-tags': '' } },
          '/tags/gone': { status: 410 },
        },
        renders,
      ),
    )
    // (A 404 is kept apart, see 'not-found answers' below.)
    for (const path of ['/tags/cookie', '/tags/degraded', '/tags/untagged', '/tags/gone']) {
      await get(base + path)
      expect((await get(base + path)).headers['x-cache']).toBe('MISS')
    }
    expect(cache.size.entries).toBe(0)
    cache.close()
  })

  it('stores its brotli variant with a window fitted to the page, not the default 4 MB one', async () => {
    const cache = newCache()
    const base = await serve(cache, astroLike({ '/rss': {} }, []))
    const plain = await get(`${base}/rss`)
    await cache.idle()
    const br = await get(`${base}/rss`, { 'accept-encoding': 'br' })
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true)
    // A 7 KB page: a 2^13-byte window, written in the stream's first bits (RFC 7932 §9.1).
    expect(plain.body.length).toBeGreaterThan(4096)
    expect(plain.body.length).toBeLessThanOrEqual(8192)
    expect(windowBitsOf(br.body)).toBe(13)
    expect(windowBitsFor(plain.body.length)).toBe(13)
    expect([windowBitsFor(0), windowBitsFor(1024), windowBitsFor(1025), windowBitsFor(50_000_000)]).toEqual([10, 10, 11, 22])
    cache.close()
  })

  it('stores brotli and gzip once and serves them by Accept-Encoding, with Vary', async () => {
    const cache = newCache()
    const base = await serve(cache, astroLike({ '/rss': {} }, []))
    const plain = await get(`${base}/rss`)
    // Before the stored variants exist, a hit is compressed on the way out.
    const early = await get(`${base}/rss`, { 'accept-encoding': 'br' })
    expect(early.headers['content-encoding']).toBe('br')
    expect(zlib.brotliDecompressSync(early.body).equals(plain.body)).toBe(true)
    await cache.idle() // the variants are made once, after the first answer
    const br = await get(`${base}/rss`, { 'accept-encoding': 'gzip, br' })
    const gz = await get(`${base}/rss`, { 'accept-encoding': 'gzip' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(br.headers.vary).toMatch(/Accept-Encoding/)
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true)
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true)
    expect(br.body.length).toBeLessThan(plain.body.length / 5)
    cache.close()
  })

  it('compresses uncached pages too, streaming', async () => {
    const cache = newCache()
    const base = await serve(cache, astroLike({ '/profile': {} }, []))
    const answer = await get(`${base}/profile`, { 'accept-encoding': 'br', cookie: 'payload-token=x' })
    expect(answer.headers['content-encoding']).toBe('br')
    expect(answer.headers['x-cache']).toBeUndefined()
    expect(zlib.brotliDecompressSync(answer.body).toString()).toContain('Lorem ipsum')
    cache.close()
  })

  it('stays within its bounds of entries and bytes', async () => {
    const cache = newCache({ maxEntries: 3, maxBytes: 64 * 1024 * 1024 })
    const base = await serve(cache, astroLike({ '/tags/a': {}, '/tags/b': {}, '/tags/c': {}, '/tags/d': {} }, []))
    for (const t of 'abcd') await get(`${base}/tags/${t}`)
    expect(cache.size.entries).toBe(3)
    const small = newCache({ maxEntries: 100, maxBytes: 40_000 })
    const base2 = await serve(small, astroLike({ '/tags/a': {}, '/tags/b': {}, '/tags/c': {}, '/tags/d': {} }, []))
    for (const t of 'abcd') await get(`${base2}/tags/${t}`)
    expect(small.size.bytes).toBeLessThanOrEqual(40_000)
    expect(small.size.entries).toBeLessThan(4)
    cache.close()
    small.close()
  })

  it('purges the pages tagged with what changed', async () => {
    const renders: string[] = []
    const cache = newCache()
    const base = await serve(cache, astroLike({ '/links': { headers: { 'x-cache-tags': 'links' } }, '/rss': {} }, renders))
    await get(`${base}/links`)
    await get(`${base}/rss`)
    cache.invalidate(['links'])
    expect((await get(`${base}/links`)).headers['x-cache']).toBe('MISS')
    expect((await get(`${base}/rss`)).headers['x-cache']).toBe('HIT')
    cache.close()
  })

  it('never hands a render begun before a purge to a request that came after the purge', async () => {
    let version = 1
    let started!: () => void
    let release!: () => void
    const renderStarted = new Promise<void>((r) => (started = r))
    const gate = new Promise<void>((r) => (release = r))
    const handler = async (_req: IncomingMessage, res: ServerResponse) => {
      const seen = version
      if (seen === 1) {
        started()
        await gate
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-cache-tags': 'list' })
      res.end(`<p>version ${seen}</p>`)
    }
    const cache = newCache()
    const base = await serve(cache, handler as ReturnType<typeof astroLike>)
    const first = get(`${base}/`)
    await renderStarted
    version = 2
    cache.invalidate(['list']) // what the page shows changed while it was rendering
    const secondWaiting = requestsReceived(1)
    const second = get(`${base}/`)
    await secondWaiting // the second request is waiting on the first render
    release()
    expect((await first).body.toString()).toContain('version 1')
    expect((await second).body.toString()).toContain('version 2')
    cache.close()
  })

  it('counts a view per GET by a person, cached or not: not HEAD, prefetches, crawlers or other statuses', async () => {
    const views = new BatchedViewCounter(async () => {}, { intervalMs: 60_000 })
    const cache = newCache({ views })
    const pages = { '/articles/7/hello': { headers: { 'x-inkwell-views': '7' } }, '/articles/7/gone': { status: 410, headers: { 'x-inkwell-views': '7' } } }
    const base = await serve(cache, astroLike(pages, []), views)
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36' }
    for (let i = 0; i < 5; i++) await get(`${base}/articles/7/hello`, browser)
    await get(`${base}/articles/7/hello`, browser, 'HEAD')
    await get(`${base}/articles/7/hello`, { ...browser, 'sec-purpose': 'prefetch' })
    await get(`${base}/articles/7/hello`, { ...browser, purpose: 'prefetch' })
    await get(`${base}/articles/7/hello`, { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })
    await get(`${base}/articles/7/gone`, browser)
    expect(views.total(7)).toBe(5)
    // Signed in: rendered for this reader alone, outside the cache, and counted the same way.
    const signedIn = { ...browser, cookie: 'payload-token=x' }
    for (let i = 0; i < 3; i++) await get(`${base}/articles/7/hello`, signedIn)
    await get(`${base}/articles/7/hello`, signedIn, 'HEAD')
    await get(`${base}/articles/7/hello`, { ...signedIn, 'sec-purpose': 'prefetch' })
    await get(`${base}/articles/7/gone`, signedIn)
    expect(views.total(7)).toBe(8)
    for (const headers of [browser, signedIn]) {
      const answer = await get(`${base}/articles/7/hello`, headers)
      expect(answer.headers['x-inkwell-views']).toBeUndefined()
      expect(answer.headers['x-cache-tags']).toBeUndefined()
    }
    await views.stop()
    cache.close()
  })
})

describe('security headers written by the cache', () => {
  it('carries the given headers on a miss, a hit and a kept 404, the page’s own winning', async () => {
    const renders: string[] = []
    const cache = newCache({ securityHeaders: [['X-Frame-Options', 'DENY'], ['Content-Security-Policy', "default-src 'self'"]] })
    const server = http.createServer((req, res) => void cache.serve(req, res, cacheKeyOf(req.url!)!, astroLike({ '/links': {} }, renders), { securityHeaders: true }))
    servers.push(server)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    for (const [path, cached] of [['/links', 'MISS'], ['/links', 'HIT'], ['/tags/none', 'MISS'], ['/tags/none', 'HIT']] as const) {
      for (const encoding of ['identity', 'br']) {
        const answer = await get(base + path, { 'accept-encoding': encoding })
        if (encoding === 'identity') expect(answer.headers['x-cache'], path).toBe(cached)
        expect(answer.headers['x-frame-options'], `${path} ${cached} ${encoding}`).toBe('DENY')
        expect(answer.headers['content-security-policy']).toBe("default-src 'self'")
      }
    }
    cache.close()
  })
})

describe('request ids written by the cache', () => {
  it('writes the id it is handed with the other headers, its own on every answer (the kept headers stay as they were)', async () => {
    const renders: string[] = []
    const cache = newCache({ securityHeaders: [['X-Frame-Options', 'DENY']] })
    let n = 0
    const server = http.createServer((req, res) => void cache.serve(req, res, cacheKeyOf(req.url!)!, astroLike({ '/links': {} }, renders), { securityHeaders: true, requestId: `id-${++n}` }))
    servers.push(server)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const seen: string[] = []
    for (const path of ['/links', '/links', '/links', '/tags/none', '/tags/none']) {
      const answer = await get(base + path, { 'accept-encoding': 'gzip' })
      seen.push(`${answer.headers['x-cache']} ${answer.headers['x-request-id']}`)
      expect(answer.headers['x-frame-options']).toBe('DENY')
    }
    expect(seen).toEqual(['MISS id-1', 'HIT id-2', 'HIT id-3', 'MISS id-4', 'HIT id-5'])
    cache.close()
  })
})

describe('the door (src/server/index.ts): a plain anonymous read answered before anything else', () => {
  /** As the web server does: the door first, then the usual way (`x-door: no` skips the door, to compare). */
  async function serveWithDoor(cache: RenderCache, handler: ReturnType<typeof astroLike>, door: string[]) {
    let n = 0
    const server = http.createServer((req, res) => {
      const requestId = `id-${++n}`
      if (req.headers['x-door'] !== 'no' && cache.answerAtDoor(req, res, requestId)) return void door.push(req.url!)
      const key = isCacheable(req) ? cacheKeyOf(req.url!) : null
      const language = requestedLanguage(req.headers.cookie, req.headers['accept-language'])
      void (key ? cache.serve(req, res, withLanguage(key, language), handler, { securityHeaders: true, requestId }) : renderPage(req, res, handler))
    })
    servers.push(server)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }
  const except = (headers: http.IncomingHttpHeaders, ...names: string[]) => Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)))

  it('answers a kept page whose URL is its key exactly as the usual way does, in every encoding, with its own request id', async () => {
    const renders: string[] = []
    const door: string[] = []
    const cache = newCache({ securityHeaders: [['X-Frame-Options', 'DENY']] })
    const base = await serveWithDoor(cache, astroLike({ '/links': {} }, renders), door)
    expect((await get(`${base}/links`)).headers['x-cache']).toBe('MISS') // nothing kept yet: the door leaves it
    expect(door).toEqual([])
    await cache.idle() // its brotli and gzip variants are made
    for (const encoding of ['identity', 'gzip', 'br']) {
      const atDoor = await get(`${base}/links`, { 'accept-encoding': encoding })
      const usual = await get(`${base}/links`, { 'accept-encoding': encoding, 'x-door': 'no' })
      expect(except(atDoor.headers, 'date', 'x-request-id'), encoding).toEqual(except(usual.headers, 'date', 'x-request-id'))
      expect(atDoor.body.equals(usual.body), encoding).toBe(true)
      expect(atDoor.headers).toMatchObject({ 'x-cache': 'HIT', 'x-frame-options': 'DENY' })
      expect(atDoor.headers['x-request-id']).not.toBe(usual.headers['x-request-id'])
    }
    expect((await get(`${base}/links`, { 'accept-encoding': 'br' })).headers['content-encoding']).toBe('br')
    const head = await get(`${base}/links`, {}, 'HEAD')
    expect(head.body.length).toBe(0)
    expect(door).toEqual(['/links', '/links', '/links', '/links', '/links'])
    expect(renders).toEqual(['/links'])
    cache.close()
  })

  it('leaves alone a URL that is not a key as it stands, a language not kept yet and a page due for its view count', async () => {
    const renders: string[] = []
    const door: string[] = []
    const views = new BatchedViewCounter(async () => {}, { intervalMs: 60_000 })
    const cache = newCache({ views })
    const base = await serveWithDoor(cache, astroLike({ '/links': {}, '/articles/7/hello': { headers: { 'x-inkwell-views': '7' } } }, renders), door)
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36' }
    await get(`${base}/links`)
    await get(`${base}/articles/7/hello`, browser)
    await cache.idle()
    // Parameters the page does not read: the same kept page, by the usual way (which drops them).
    expect((await get(`${base}/links?utm_source=x`)).headers['x-cache']).toBe('HIT')
    expect(door).toEqual([])
    // Another interface language: its own variant, rendered once, then at the door.
    expect((await get(`${base}/links`, { 'accept-language': 'zh-CN,zh;q=0.9' })).headers['x-cache']).toBe('MISS')
    await cache.idle()
    expect((await get(`${base}/links`, { 'accept-language': 'zh-CN,zh;q=0.9' })).headers['x-cache']).toBe('HIT')
    expect(door).toEqual(['/links'])
    // Views at the door are counted as the usual way counts them: GETs by a person, not HEAD or crawlers.
    for (let i = 0; i < 3; i++) await get(`${base}/articles/7/hello`, browser)
    await get(`${base}/articles/7/hello`, browser, 'HEAD')
    await get(`${base}/articles/7/hello`, { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' })
    expect(door.filter((url) => url.startsWith('/articles/'))).toHaveLength(5)
    expect(views.total(7)).toBe(1 + 3)
    // Its shown count due for a refresh: the usual way renders it again.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + VIEW_COUNT_REFRESH_MS + 1000 })
    try {
      door.length = 0
      expect((await get(`${base}/articles/7/hello`, browser)).headers['x-cache']).toBe('MISS')
      expect(door).toEqual([])
      expect(renders.filter((url) => url.startsWith('/articles/'))).toHaveLength(2)
    } finally {
      vi.useRealTimers()
    }
    await views.stop()
    cache.close()
  })
})

describe('not-found answers', () => {
  it('names what each kind of not-found page waits for', () => {
    expect(notFoundTagsOf('/articles/42/whatever')).toEqual(['article:42', 'settings'])
    expect(notFoundTagsOf('/users/7')).toEqual(['user:7', 'settings'])
    expect(notFoundTagsOf('/tags/nope')).toEqual(['tags', 'settings'])
    expect(notFoundTagsOf('/categories/nope?page=3')).toEqual(['categories', 'settings', 'list'])
    expect(notFoundTagsOf('/?page=900')).toEqual(['list', 'settings'])
    expect(notFoundTagsOf('/links')).toBeNull()
  })

  it('keeps a 404 (apart from pages, bounded) and serves it compressed, without rendering again', async () => {
    const renders: string[] = []
    const cache = newCache({ maxNotFound: 3 })
    const base = await serve(cache, astroLike({}, renders))
    expect((await get(`${base}/tags/nope`)).status).toBe(404)
    const again = await get(`${base}/tags/nope`, { 'accept-encoding': 'br' })
    expect(again.status).toBe(404)
    expect(again.headers['x-cache']).toBe('HIT')
    expect(again.headers['content-encoding']).toBe('br')
    expect(zlib.brotliDecompressSync(again.body).toString()).toBe('not found')
    expect(renders).toEqual(['/tags/nope'])
    for (const slug of ['a', 'b', 'c', 'd']) await get(`${base}/tags/${slug}`)
    expect(cache.size.notFound).toBe(3)
    expect(cache.size.entries).toBe(0) // real pages' room is untouched
    cache.close()
  })

  it('forgets a kept 404 when something with that slug or id appears', async () => {
    const renders: string[] = []
    const pages: Record<string, Page> = {}
    const cache = newCache()
    const base = await serve(cache, astroLike(pages, renders))
    for (const path of ['/tags/new', '/articles/5/hello', '/users/9']) {
      expect((await get(base + path)).status).toBe(404)
      expect((await get(base + path)).headers['x-cache']).toBe('HIT')
    }
    // The tag is created, the article published, the user registered: each publishes its tags (src/plugins/renderCache).
    pages['/tags/new'] = { headers: { 'x-cache-tags': 'tags,list' } }
    pages['/articles/5/hello'] = { headers: { 'x-cache-tags': 'article:5' } }
    pages['/users/9'] = { headers: { 'x-cache-tags': 'user:9,list' } }
    cache.invalidate(['tags', 'list'])
    cache.invalidate(['article:5', 'list'])
    cache.invalidate(['user:9', 'list'])
    for (const path of ['/tags/new', '/articles/5/hello', '/users/9']) {
      const answer = await get(base + path)
      expect(answer.status).toBe(200)
      expect(answer.headers['x-cache']).toBe('MISS')
    }
    expect(cache.size.notFound).toBe(0)
    // An unrelated change leaves other not-found answers kept.
    await get(`${base}/users/10`)
    cache.invalidate(['article:5', 'list'])
    expect((await get(`${base}/users/10`)).headers['x-cache']).toBe('HIT')
    cache.close()
  })
})

describe('stale if error (the database away)', () => {
  it('answers a purged page from its last good copy while its render fails, marked stale, until a render succeeds', async () => {
    const pages: Record<string, Page> = { '/': { body: 'good '.repeat(100) } }
    const cache = newCache({ databaseAway: async () => true })
    const url = await serve(cache, astroLike(pages, []))
    expect((await get(`${url}/`)).headers['x-cache']).toBe('MISS')
    cache.invalidate(['list'])
    pages['/'] = { status: 500, body: 'Something went wrong' }
    const stale = await get(`${url}/`)
    expect(stale.status).toBe(200)
    expect(stale.body.toString()).toBe('good '.repeat(100))
    expect(stale.headers).toMatchObject({ 'x-cache': 'STALE', warning: '111 - "Revalidation Failed"', 'cache-control': 'no-cache' })
    expect(Number(stale.headers.age)).toBeGreaterThanOrEqual(0)
    expect(cache.stats.staleHits).toBe(1)
    // Everything purged at once ('*', a reconnect of the invalidation listener) falls back the same way.
    cache.invalidate(['*'])
    expect((await get(`${url}/`)).headers['x-cache']).toBe('STALE')
    pages['/'] = { body: 'fresh' }
    const fresh = await get(`${url}/`)
    expect([fresh.status, fresh.body.toString(), fresh.headers['x-cache']]).toEqual([200, 'fresh', 'MISS'])
    cache.invalidate(['list'])
    pages['/'] = { status: 500, body: 'Something went wrong' }
    expect((await get(`${url}/`)).body.toString()).toBe('fresh') // the newest good copy
  })

  it('answers 503 with Retry-After when a failed page has no copy and the database is away; 500 when it is there', async () => {
    let away = true
    const pages: Record<string, Page> = { '/': { status: 500, body: 'Something went wrong' }, '/login': { status: 500, body: 'Something went wrong' } }
    const url = await serve(newCache({ databaseAway: async () => away }), astroLike(pages, []))
    const cached = await get(`${url}/`)
    expect([cached.status, cached.headers['retry-after'], cached.headers['cache-control'], cached.body.toString()]).toEqual([503, '5', 'no-store', 'Something went wrong'])
    away = false
    expect((await get(`${url}/`)).status).toBe(500)
  })

  it('renders uncached pages (forms, signed-in readers) the same way: 503 with Retry-After while the database is away', async () => {
    const pages: Record<string, Page> = { '/login': { status: 500, body: 'Something went wrong' } }
    const handler = astroLike(pages, [])
    const server = http.createServer((req, res) => void renderPage(req, res, handler, { databaseAway: async () => true }))
    servers.push(server)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const answer = await get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/login`)
    expect([answer.status, answer.headers['retry-after'], answer.body.toString()]).toEqual([503, '5', 'Something went wrong'])
  })
})
