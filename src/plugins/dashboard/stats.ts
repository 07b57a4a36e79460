/**
 * The dashboard's data for one scope and period: every widget's query at once,
 * cached for a minute per Payload instance and purged whenever an article, a
 * reply, a user, a category or a tag changes (the render cache's invalidation
 * bus, which every process hears after the writing transaction commits).
 */
import { LRUCache } from 'lru-cache'
import type { Payload } from 'payload'

import { onInvalidate } from '../../lib/cacheBus'
import {
  loadArticleViews,
  loadCategories,
  loadSeries,
  loadTags,
  loadTopArticles,
  loadTotals,
  PERIODS,
  type ArticleRow,
  type ArticleViews,
  type GroupRow,
  type Period,
  type Scope,
  type SeriesPoint,
  type Totals,
} from './queries'

export type DashboardData = {
  scope: Scope['kind']
  period: Period
  buckets: number
  timeZone: string
  generatedAt: string
  totals: Totals
  series: SeriesPoint[]
  categories: GroupRow[]
  tags: GroupRow[]
  topArticles: ArticleRow[]
  /** The chosen article's views, or the most viewed one's; null when no article has views in the period. */
  article: ArticleViews | null
}

export type DashboardRequest = { period: Period; scope: Scope; timeZone: string; articleId?: number; now?: Date }

export const CACHE_TTL_MS = 60_000

/** Tags of the invalidation bus that leave the statistics as they are. */
const IRRELEVANT = new Set(['links', 'settings'])

const caches = new WeakMap<Payload, LRUCache<string, Promise<DashboardData | undefined>>>()

function cacheOf(payload: Payload): LRUCache<string, Promise<DashboardData | undefined>> {
  let cache = caches.get(payload)
  if (!cache) {
    const created = new LRUCache<string, Promise<DashboardData | undefined>>({ max: 500, ttl: CACHE_TTL_MS })
    onInvalidate((tags) => {
      if (tags.some((tag) => !IRRELEVANT.has(tag))) created.clear()
    })
    caches.set(payload, (cache = created))
  }
  return cache
}

const cacheKey = (r: DashboardRequest) => [r.scope.kind === 'author' ? `author:${r.scope.authorId}` : 'site', r.period, r.timeZone, r.articleId ?? ''].join('|')

/** undefined when the requested article is not one the scope may see. */
export function dashboardData(payload: Payload, request: DashboardRequest): Promise<DashboardData | undefined> {
  if (request.now) return computeDashboard(payload, request) // a pinned clock (tests, bench) is never cached
  const cache = cacheOf(payload)
  const key = cacheKey(request)
  const hit = cache.get(key)
  if (hit) return hit
  const pending = computeDashboard(payload, request)
  cache.set(key, pending)
  pending.catch(() => cache.delete(key))
  return pending
}

export async function computeDashboard(payload: Payload, request: DashboardRequest): Promise<DashboardData | undefined> {
  const q = { period: request.period, scope: request.scope, timeZone: request.timeZone, now: request.now ?? new Date() }
  const [totals, series, categories, tags, topArticles, chosen] = await Promise.all([
    loadTotals(payload, q),
    loadSeries(payload, q),
    loadCategories(payload, q),
    loadTags(payload, q),
    loadTopArticles(payload, q),
    request.articleId === undefined ? undefined : loadArticleViews(payload, q, request.articleId),
  ])
  if (request.articleId !== undefined && !chosen) return undefined
  const article = chosen ?? (topArticles[0] ? await loadArticleViews(payload, q, topArticles[0].id) : undefined)
  return {
    scope: request.scope.kind,
    period: request.period,
    buckets: PERIODS[request.period],
    timeZone: request.timeZone,
    generatedAt: q.now.toISOString(),
    totals,
    series,
    categories,
    tags,
    topArticles,
    article: article ?? null,
  }
}
