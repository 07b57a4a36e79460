import { isbot } from 'isbot'

/**
 * Article view counting without a database write per view: hits are counted
 * in memory and flushed in batches (every few seconds, or sooner under load,
 * and on shutdown). A failed flush keeps its hits for the next one, so no
 * view is lost. The interface is what a Redis-backed counter will implement.
 */
export interface ViewCounter {
  /** Count one view of an article. */
  hit(articleId: number): void
  /** Views of this article counted here since start (flushed or not). */
  total(articleId: number): number
  /** Views counted here and not yet written to the database. */
  pending(articleId: number): number
  /** Write pending views now. */
  flush(): Promise<void>
  /** Flush and stop the timer (clean shutdown). */
  stop(): Promise<void>
}

type RequestLike = { method?: string; headers: Record<string, string | string[] | undefined> | { get(name: string): string | null } }

function header(req: RequestLike, name: string): string {
  const h = req.headers
  const value = typeof (h as { get?: unknown }).get === 'function' ? (h as { get(n: string): string | null }).get(name) : (h as Record<string, string | string[] | undefined>)[name]
  return Array.isArray(value) ? value.join(',') : (value ?? '')
}

/**
 * Whether a request for an article page is a person reading it: a GET (not
 * HEAD), not a browser prefetch (`Sec-Purpose: prefetch`, or the older
 * `Purpose`/`X-Moz`/`X-Purpose` headers) and not a known crawler (isbot's
 * kept list of user agents). Redirects never reach the counting code.
 */
export function shouldCountView(req: RequestLike): boolean {
  if ((req.method ?? 'GET').toUpperCase() !== 'GET') return false
  const purpose = `${header(req, 'sec-purpose')} ${header(req, 'purpose')} ${header(req, 'x-purpose')} ${header(req, 'x-moz')}`.toLowerCase()
  if (purpose.includes('prefetch') || purpose.includes('preview')) return false
  return !isbot(header(req, 'user-agent'))
}

export type ViewWriter = (batch: Map<number, number>) => Promise<void>

export class BatchedViewCounter implements ViewCounter {
  private totals = new Map<number, number>()
  private pendingHits = new Map<number, number>()
  private pendingCount = 0
  private flushing: Promise<void> = Promise.resolve()
  private timer: NodeJS.Timeout

  constructor(
    private write: ViewWriter,
    private options: { intervalMs?: number; maxPending?: number; onError?: (error: unknown) => void } = {},
  ) {
    this.timer = setInterval(() => void this.flush(), options.intervalMs ?? 5_000)
    this.timer.unref()
  }

  hit(articleId: number): void {
    this.totals.set(articleId, (this.totals.get(articleId) ?? 0) + 1)
    this.pendingHits.set(articleId, (this.pendingHits.get(articleId) ?? 0) + 1)
    if (++this.pendingCount >= (this.options.maxPending ?? 5_000)) void this.flush()
  }

  total(articleId: number): number {
    return this.totals.get(articleId) ?? 0
  }

  pending(articleId: number): number {
    return this.pendingHits.get(articleId) ?? 0
  }

  /** Flushes run one at a time; hits arriving meanwhile wait for the next one. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushOnce())
    return this.flushing
  }

  private async flushOnce(): Promise<void> {
    if (this.pendingHits.size === 0) return
    const batch = this.pendingHits
    this.pendingHits = new Map()
    this.pendingCount = 0
    try {
      await this.write(batch)
    } catch (error) {
      // Put them back: the next flush retries.
      for (const [id, n] of batch) this.pendingHits.set(id, (this.pendingHits.get(id) ?? 0) + n)
      this.pendingCount += [...batch.values()].reduce((a, b) => a + b, 0)
      this.options.onError?.(error)
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}

type Queryable = { query: (sql: string, params: unknown[]) => Promise<unknown> }

/** Adds a batch of views to articles.view_count in one statement. */
export function postgresViewWriter(db: Queryable): ViewWriter {
  return async (batch) => {
    const ids = [...batch.keys()]
    const counts = ids.map((id) => batch.get(id)!)
    await db.query(
      `update articles a set view_count = coalesce(a.view_count, 0) + v.n
         from unnest($1::int[], $2::int[]) as v(id, n) where a.id = v.id`,
      [ids, counts],
    )
  }
}

/** The process's counter, shared by the server and the Astro bundle through globalThis. */
const g = globalThis as unknown as { __inkwellViews?: ViewCounter }
export function installViewCounter(counter: ViewCounter): void {
  g.__inkwellViews = counter
}
export function viewCounter(): ViewCounter | undefined {
  return g.__inkwellViews
}

/**
 * The view count the site shows for an article: what the database holds plus
 * this process's views not yet written. Every page that shows a count (the
 * article, list cards) calls this one function.
 */
export function displayedViewCount(article: { id: number; viewCount?: number | null }): number {
  return (article.viewCount ?? 0) + (viewCounter()?.pending(article.id) ?? 0)
}
