/**
 * The only module of the reader site that talks to Payload: its REST API on
 * the same origin, typed from the generated payload-types.ts. Public pages
 * read as an anonymous visitor, so what they show is what the public may see.
 */
import type { Article, Category, Link, Media, Reply, SiteSetting, Tag, User } from '../../../src/payload-types'

export type { Article, Category, Link, Media, Reply, SiteSetting, Tag, User }

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
  limit: number
  hasNextPage: boolean
  hasPrevPage: boolean
}

type Params = Record<string, string | number | boolean | undefined>

function apiBase(): string {
  return (process.env.INKWELL_INTERNAL_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '') + '/api'
}

async function get<T>(path: string, params: Params = {}, init: RequestInit = {}): Promise<T> {
  const url = new URL(apiBase() + path)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, String(v))
  const res = await fetch(url, init)
  if (!res.ok) throw new ApiError(res.status, `GET ${url.pathname} → ${res.status}`)
  return (await res.json()) as T
}

async function getOrNull<T>(path: string, params: Params = {}): Promise<T | null> {
  try {
    return await get<T>(path, params)
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return null
    throw error
  }
}

const select = (fields: string[], prefix = 'select') => Object.fromEntries(fields.map((f) => [`${prefix}[${f}]`, 'true']))

/** What a list card needs, and no more. */
const CARD = {
  ...select(['title', 'slug', 'excerpt', 'publishedAt', 'viewCount', 'replyCount', 'lastReplyAt', 'author', 'category', 'tags']),
  ...select(['name'], 'populate[users]'),
  ...select(['name', 'slug'], 'populate[categories]'),
  ...select(['name', 'slug'], 'populate[tags]'),
  depth: 1,
}

export type ArticleSort = 'new' | 'replied'
export type ArticleFilter = { category?: number; tag?: number; author?: number }

export async function listArticles(
  { page = 1, limit = 10, sort = 'new', ...filter }: { page?: number; limit?: number; sort?: ArticleSort } & ArticleFilter = {},
): Promise<Page<Article>> {
  const params: Params = { ...CARD, 'where[status][equals]': 'published', page, limit }
  if (sort === 'replied') {
    params.sort = '-lastReplyAt'
    params['where[lastReplyAt][exists]'] = true
  } else params.sort = '-publishedAt'
  if (filter.category) params['where[category][equals]'] = filter.category
  if (filter.tag) params['where[tags][in]'] = filter.tag
  if (filter.author) params['where[author][equals]'] = filter.author
  return get<Page<Article>>('/articles', params)
}

/** A published article with what its page shows, or null. */
export async function getArticle(id: number): Promise<Article | null> {
  const article = await getOrNull<Article>(`/articles/${id}`, {
    depth: 1,
    ...select(['name', 'avatar'], 'populate[users]'),
    ...select(['name', 'slug'], 'populate[categories]'),
    ...select(['name', 'slug'], 'populate[tags]'),
    ...select(['url', 'alt', 'width', 'height', 'sizes'], 'populate[media]'),
  })
  return article?.status === 'published' ? article : null
}

export async function listReplies(
  { article, author, page = 1, limit = 20, newestFirst = false }: { article?: number; author?: number; page?: number; limit?: number; newestFirst?: boolean },
): Promise<Page<Reply>> {
  const params: Params = {
    page,
    limit,
    sort: newestFirst ? '-createdAt' : 'createdAt',
    depth: 1,
    ...select(['html', 'createdAt', 'author', 'article']),
    ...select(['name', 'avatar'], 'populate[users]'),
    ...select(['title', 'slug'], 'populate[articles]'),
  }
  if (article) params['where[article][equals]'] = article
  if (author) params['where[author][equals]'] = author
  return get<Page<Reply>>('/replies', params)
}

export async function getSettings(): Promise<SiteSetting> {
  return get<SiteSetting>('/globals/site-settings', { depth: 0 })
}

export async function listCategories(): Promise<Category[]> {
  return (await get<Page<Category>>('/categories', { limit: 100, sort: 'order', depth: 0, ...select(['name', 'slug', 'description']) })).docs
}

export async function getCategoryBySlug(slug: string): Promise<Category | null> {
  return (await get<Page<Category>>('/categories', { 'where[slug][equals]': slug, limit: 1, depth: 0 })).docs[0] ?? null
}

export async function getTagBySlug(slug: string): Promise<Tag | null> {
  return (await get<Page<Tag>>('/tags', { 'where[slug][equals]': slug, limit: 1, depth: 0 })).docs[0] ?? null
}

export async function listLinks(): Promise<Link[]> {
  return (await get<Page<Link>>('/links', { limit: 100, sort: 'order', depth: 0 })).docs
}

export async function getUser(id: number): Promise<User | null> {
  return getOrNull<User>(`/users/${id}`, {
    depth: 1,
    ...select(['name', 'introduction', 'avatar', 'activedAt', 'createdAt', 'roles']),
    ...select(['url', 'sizes'], 'populate[media]'),
    ...select(['label'], 'populate[roles]'),
  })
}

export type ActiveUsers = { computedAt: string | null; users: { id: number; name: string; avatarUrl?: string | null }[] }

export async function getActiveUsers(): Promise<ActiveUsers> {
  return get<ActiveUsers>('/active-users')
}

/** Every published article, oldest id first, in batches: for the sitemap, without holding them all. */
export async function* publishedArticleStubs(batch = 1000): AsyncGenerator<Pick<Article, 'id' | 'slug' | 'updatedAt'>> {
  let after = 0
  for (;;) {
    const page = await get<Page<Article>>('/articles', {
      'where[status][equals]': 'published',
      'where[id][greater_than]': after,
      sort: 'id',
      limit: batch,
      pagination: false,
      depth: 0,
      ...select(['slug', 'updatedAt']),
    })
    for (const doc of page.docs) yield doc
    if (page.docs.length < batch) return
    after = page.docs[page.docs.length - 1]!.id
  }
}

export async function countPublishedArticles(): Promise<number> {
  return (await get<{ totalDocs: number }>('/articles/count', { 'where[status][equals]': 'published' })).totalDocs
}

export async function listAll<T>(collection: 'categories' | 'tags' | 'users', fields: string[]): Promise<T[]> {
  return (await get<Page<T>>(`/${collection}`, { limit: 0, pagination: false, depth: 0, ...select(fields) })).docs
}

export async function latestArticlesWithBody(limit = 20): Promise<Article[]> {
  return (
    await get<Page<Article>>('/articles', {
      'where[status][equals]': 'published',
      sort: '-publishedAt',
      limit,
      depth: 1,
      ...select(['title', 'slug', 'excerpt', 'html', 'publishedAt', 'updatedAt', 'author', 'category', 'tags']),
      ...select(['name'], 'populate[users]'),
      // Feeds name categories and tags by slug (Atom term) and link to their pages.
      ...select(['name', 'slug'], 'populate[categories]'),
      ...select(['name', 'slug'], 'populate[tags]'),
    })
  ).docs
}

// ---- helpers for pages -------------------------------------------------------

export function nameOf(ref: unknown): string | undefined {
  return ref && typeof ref === 'object' && 'name' in ref ? String((ref as { name: unknown }).name) : undefined
}

export function idOf(ref: unknown): number | undefined {
  if (typeof ref === 'number') return ref
  return ref && typeof ref === 'object' && 'id' in ref ? Number((ref as { id: unknown }).id) : undefined
}

export function articlePath(article: Pick<Article, 'id' | 'slug'>): string {
  return `/articles/${article.id}/${article.slug ?? ''}`
}

export function avatarUrl(user: unknown, size: 'thumbnail' | 'square' = 'thumbnail'): string | undefined {
  const avatar = user && typeof user === 'object' ? (user as { avatar?: unknown }).avatar : undefined
  if (!avatar || typeof avatar !== 'object') return undefined
  const media = avatar as Media
  return media.sizes?.[size]?.url ?? media.url ?? undefined
}

/** Positive integer from a query parameter, else the fallback. */
export function pageParam(url: URL, name = 'page'): number {
  const n = Number(url.searchParams.get(name) ?? '1')
  return Number.isInteger(n) && n > 0 && n < 100_000 ? n : 1
}

// ---------------------------------------------------------------------------
// Accounts: the visitor's session, and the account forms' calls to
// /api/accounts/*. The site acts for the visitor, so their cookie and address
// travel with each call, and the answer's Set-Cookie headers go back to them.

/** The site's own origin, as Payload's CSRF allow-list (BASE_URL) knows it. */
function siteOrigin(): string {
  return (process.env.BASE_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/+$/, '')
}

/**
 * Headers for a call made on the visitor's behalf. Payload accepts a session
 * cookie only with a same-site Origin; Astro has already refused form posts
 * from other origins (security.checkOrigin), so the site vouches for it.
 */
function onBehalfOf(request: Request, clientAddress?: string): Headers {
  const headers = new Headers({ origin: siteOrigin(), 'sec-fetch-site': 'same-origin' })
  const cookie = request.headers.get('cookie')
  if (cookie) headers.set('cookie', cookie)
  if (clientAddress) headers.set('x-forwarded-for', clientAddress)
  return headers
}

/** The signed-in visitor (avatar populated), or null. */
export async function currentUser(request: Request): Promise<User | null> {
  if (!request.headers.get('cookie')?.includes('-token=')) return null
  try {
    const res = await fetch(`${apiBase()}/users/me?depth=1`, { headers: onBehalfOf(request) })
    if (!res.ok) return null
    return ((await res.json()) as { user: User | null }).user ?? null
  } catch {
    return null
  }
}

export type AccountReply = {
  ok: boolean
  status: number
  data: { message?: string; errors?: Record<string, string> | { message: string }[]; redirect?: string; [key: string]: unknown }
  setCookies: string[]
}

/** POSTs a form to an account endpoint (`/accounts/login`, …) as the visitor. */
export async function accountPost(
  path: string,
  request: Request,
  body: Record<string, string | number> | FormData,
  clientAddress?: string,
): Promise<AccountReply> {
  const headers = onBehalfOf(request, clientAddress)
  let payloadBody: BodyInit
  if (body instanceof FormData) payloadBody = body
  else {
    headers.set('content-type', 'application/json')
    payloadBody = JSON.stringify(body)
  }
  const res = await fetch(`${apiBase()}${path}`, { method: 'POST', headers, body: payloadBody })
  let data: AccountReply['data'] = {}
  try {
    data = (await res.json()) as AccountReply['data']
  } catch {
    data = { message: `The server answered ${res.status}.` }
  }
  return { ok: res.ok, status: res.status, data, setCookies: res.headers.getSetCookie() }
}

/** Field messages from an account reply; Payload's own errors (e.g. 429) land on `form`. */
export function fieldErrorsOf(reply: AccountReply): Record<string, string> {
  const { errors, message } = reply.data
  if (errors && !Array.isArray(errors)) return errors
  if (Array.isArray(errors) && errors[0]) return { form: errors[0].message }
  return { form: message ?? 'Something went wrong. Please try again.' }
}

/** A 303 to `location` carrying the account reply's cookies (Post/Redirect/Get). */
export function redirectWithCookies(location: string, setCookies: string[]): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' })
  for (const cookie of setCookies) headers.append('set-cookie', cookie)
  return new Response(null, { status: 303, headers })
}

// ---------------------------------------------------------------------------
// Replies and notifications, as the signed-in visitor.

/** A Payload error answer's first field message ("A reply cannot be empty."), else its message. */
export function firstErrorOf(reply: AccountReply): string {
  const errors = reply.data.errors
  if (Array.isArray(errors)) {
    const first = errors[0] as { message?: string; data?: { errors?: { message?: string }[] } } | undefined
    return first?.data?.errors?.[0]?.message ?? first?.message ?? 'Something went wrong. Please try again.'
  }
  return reply.data.message ?? 'Something went wrong. Please try again.'
}

async function getAsVisitor<T>(request: Request, path: string, params: Params = {}): Promise<T> {
  const url = new URL(apiBase() + path)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, String(v))
  const res = await fetch(url, { headers: onBehalfOf(request) })
  if (!res.ok) throw new ApiError(res.status, `GET ${url.pathname} → ${res.status}`)
  return (await res.json()) as T
}

export type NotificationItem = {
  id: number
  kind: string
  createdAt: string
  readAt?: string | null
  article?: { id: number; title: string; slug?: string | null } | number | null
  reply?: { id: number; body?: string } | number | null
  actor?: { id: number; name: string } | number | null
}

export async function listMyNotifications(request: Request, userId: number, page = 1): Promise<Page<NotificationItem>> {
  return getAsVisitor<Page<NotificationItem>>(request, '/notifications', {
    'where[recipient][equals]': userId,
    sort: '-createdAt',
    page,
    limit: 20,
    depth: 1,
    ...select(['title', 'slug'], 'populate[articles]'),
    ...select(['body'], 'populate[replies]'),
    ...select(['name'], 'populate[users]'),
  })
}

/** Marks the given notifications read (one bulk PATCH, limited by access to the visitor's own). */
export async function markNotificationsRead(request: Request, ids: number[]): Promise<void> {
  if (ids.length === 0) return
  const url = new URL(apiBase() + '/notifications')
  url.searchParams.set('where[id][in]', ids.join(','))
  const headers = onBehalfOf(request)
  headers.set('content-type', 'application/json')
  await fetch(url, { method: 'PATCH', headers, body: JSON.stringify({ readAt: new Date().toISOString() }) })
}

export async function lastRepliesPage(articleId: number, perPage = 20): Promise<number> {
  const { totalDocs } = await listReplies({ article: articleId, limit: 1 })
  return Math.max(1, Math.ceil(totalDocs / perPage))
}
