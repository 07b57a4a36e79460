/**
 * A render cache in front of the reader site, for anonymous GET/HEAD requests.
 *
 * A miss renders the page once through Astro (concurrent misses for one URL
 * share that render) and keeps it when the page declared what it depends on
 * in an `x-cache-tags` header. A change purges exactly the pages tagged with
 * what changed (see src/plugins/renderCache.ts); a page whose render started
 * before a purge of one of its tags is not kept, so nothing stale is stored.
 *
 * The article view count is the one part of a page that changes on every
 * view: it is kept out of the cached bytes and spliced in per request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

import { LRUCache } from 'lru-cache'

import { onInvalidate } from '../lib/cacheBus'
import type { ViewCounter } from '../lib/views'

const RENDER_HEADER = 'x-inkwell-render'
const TAGS_HEADER = 'x-cache-tags'
const VIEWS_HEADER = 'x-inkwell-views'
const SESSION_COOKIE = /(?:^|;\s*)payload-token=/
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', TAGS_HEADER, VIEWS_HEADER])

type ViewSlot = { articleId: number; before: Buffer; after: Buffer; shown: number; totalAtRender: number }
type Entry = { status: number; headers: Record<string, string>; body: Buffer; tags: string[]; views?: ViewSlot }
type Rendered = { entry: Entry; cacheable: boolean }

export type RenderCacheOptions = {
  /** Where the loopback render request goes (this same server). */
  origin: string
  views?: ViewCounter
  maxBytes?: number
}

/** True for the requests the cache may answer: anonymous reads. */
export function isCacheable(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false
  if (req.headers[RENDER_HEADER]) return false
  return !SESSION_COOKIE.test(req.headers.cookie ?? '')
}

/** True when this request is the cache's own render (so the page must not count a view). */
export function isCacheRender(req: { headers: { get(name: string): string | null } }): boolean {
  return req.headers.get(RENDER_HEADER) === '1'
}

export class RenderCache {
  private entries: LRUCache<string, Entry>
  private keysByTag = new Map<string, Set<string>>()
  private inflight = new Map<string, Promise<Rendered>>()
  private purges: { seq: number; tags: Set<string> }[] = []
  private seq = 0
  private unsubscribe: () => void
  stats = { hits: 0, misses: 0, purged: 0 }

  constructor(private options: RenderCacheOptions) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: options.maxBytes ?? 128 * 1024 * 1024,
      sizeCalculation: (entry) => entry.body.length + 512,
      dispose: (entry, key) => this.untag(key, entry.tags),
    })
    this.unsubscribe = onInvalidate((tags) => this.invalidate(tags))
  }

  close() {
    this.unsubscribe()
    this.entries.clear()
  }

  /** Purges every page tagged with any of `tags` ('*' purges all). */
  invalidate(tags: string[]) {
    this.seq++
    this.purges.push({ seq: this.seq, tags: new Set(tags) })
    if (this.purges.length > 1000) this.purges.splice(0, this.purges.length - 1000)
    if (tags.includes('*')) {
      this.stats.purged += this.entries.size
      this.entries.clear()
      return
    }
    for (const tag of tags) {
      for (const key of this.keysByTag.get(tag) ?? []) {
        if (this.entries.delete(key)) this.stats.purged++
      }
    }
  }

  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const key = req.url ?? '/'
    const cached = this.entries.get(key)
    if (cached) {
      this.stats.hits++
      return this.write(req, res, cached, true)
    }
    this.stats.misses++
    let pending = this.inflight.get(key)
    if (!pending) {
      pending = this.render(key).finally(() => this.inflight.delete(key))
      this.inflight.set(key, pending)
    }
    this.write(req, res, (await pending).entry, false)
  }

  private write(req: IncomingMessage, res: ServerResponse, entry: Entry, hit: boolean) {
    let body = entry.body
    if (entry.views && entry.status === 200) {
      const { articleId, before, after, shown, totalAtRender } = entry.views
      const views = this.options.views
      // A GET is a view; the page shows the count as rendered plus views counted here since.
      if (req.method === 'GET') views?.hit(articleId)
      const now = shown + ((views?.total(articleId) ?? totalAtRender) - totalAtRender)
      body = Buffer.concat([before, Buffer.from(String(now)), after])
    }
    res.writeHead(entry.status, { ...entry.headers, 'content-length': String(body.length), 'x-cache': hit ? 'HIT' : 'MISS' })
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  private async render(key: string): Promise<Rendered> {
    const startedAt = this.seq
    const response = await fetch(this.options.origin + key, {
      headers: { [RENDER_HEADER]: '1', accept: 'text/html,application/xml,*/*' },
      redirect: 'manual',
    })
    const body = Buffer.from(await response.arrayBuffer())
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) headers[name] = value
    })
    const tags = (response.headers.get(TAGS_HEADER) ?? '').split(',').map((t) => t.trim()).filter(Boolean)
    const entry: Entry = { status: response.status, headers, body, tags }

    const viewsHeader = response.headers.get(VIEWS_HEADER)
    if (viewsHeader && response.status === 200) entry.views = this.viewSlot(Number(viewsHeader), body)

    const cacheable = response.status === 200 && tags.length > 0 && !this.purgedSince(startedAt, tags)
    if (cacheable) {
      this.entries.set(key, entry)
      for (const tag of tags) {
        let keys = this.keysByTag.get(tag)
        if (!keys) this.keysByTag.set(tag, (keys = new Set()))
        keys.add(key)
      }
    }
    return { entry, cacheable }
  }

  /** Splits the body around `data-views="<id>">N<` so N can be replaced per request. */
  private viewSlot(articleId: number, body: Buffer): ViewSlot | undefined {
    if (!Number.isInteger(articleId)) return undefined
    const marker = Buffer.from(`data-views="${articleId}">`)
    const at = body.indexOf(marker)
    if (at < 0) return undefined
    const start = at + marker.length
    const end = body.indexOf('<', start)
    const shown = Number(body.subarray(start, end).toString())
    if (end < 0 || !Number.isFinite(shown)) return undefined
    return {
      articleId,
      before: body.subarray(0, start),
      after: body.subarray(end),
      shown,
      totalAtRender: this.options.views?.total(articleId) ?? 0,
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
