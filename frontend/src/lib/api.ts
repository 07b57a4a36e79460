/**
 * The only module of the reader site that talks to Payload: its REST API on
 * the same origin, typed from the generated payload-types.ts.
 */
import type { Article, Category, Media, SiteSetting, Tag, User } from '../../../src/payload-types'

export type { Article, Category, Media, SiteSetting, Tag, User }

export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
  ) {
    super(message)
  }
}

export type Page<T> = {
  docs: T[]
  totalDocs: number
  totalPages: number
  page: number
  hasNextPage: boolean
  hasPrevPage: boolean
}

function apiBase(): string {
  return (process.env.INKWELL_INTERNAL_URL ?? process.env.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '') + '/api'
}

async function get<T>(path: string, params: Record<string, string | number | undefined> = {}, cookie?: string): Promise<T> {
  const url = new URL(apiBase() + path)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, String(v))
  const res = await fetch(url, { headers: cookie ? { cookie } : {} })
  if (!res.ok) throw new ApiError(res.status, `GET ${url.pathname} → ${res.status}`)
  return (await res.json()) as T
}

const listSelect = {
  'select[title]': 'true',
  'select[slug]': 'true',
  'select[excerpt]': 'true',
  'select[publishedAt]': 'true',
  'select[viewCount]': 'true',
  'select[replyCount]': 'true',
  'select[author]': 'true',
  'select[category]': 'true',
  'populate[users][name]': 'true',
  'populate[categories][name]': 'true',
  'populate[categories][slug]': 'true',
}

export async function listArticles({ page = 1, limit = 10 }: { page?: number; limit?: number } = {}): Promise<Page<Article>> {
  return get<Page<Article>>('/articles', {
    'where[status][equals]': 'published',
    sort: '-publishedAt',
    depth: 1,
    page,
    limit,
    ...listSelect,
  })
}

export async function getArticle(id: number): Promise<Article | null> {
  try {
    const article = await get<Article>(`/articles/${id}`, { depth: 1 })
    return article.status === 'published' ? article : null
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return null
    throw error
  }
}

export async function getSettings(): Promise<SiteSetting> {
  return get<SiteSetting>('/globals/site-settings', { depth: 0 })
}

export function nameOf(ref: unknown): string | undefined {
  return ref && typeof ref === 'object' && 'name' in ref ? String((ref as { name: unknown }).name) : undefined
}

export function articlePath(article: Pick<Article, 'id' | 'slug'>): string {
  return `/articles/${article.id}/${article.slug ?? ''}`
}
