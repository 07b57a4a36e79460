/**
 * The only module of the reader site that talks to Payload. It calls the
 * Payload instance of this same process (the one-origin server provides it,
 * see src/lib/sitePayload.ts) through the Local API, always with
 * `overrideAccess: false`: public pages read as an anonymous visitor, so
 * what they show is exactly what the public may see over REST, and the
 * visitor's own data (`me`, notifications) is read as that visitor.
 * Types come from the generated payload-types.ts.
 */
import type { Payload, Where } from 'payload'

import { readActiveUsers, type ActiveUsers } from '../../../src/lib/activeUsers'
import { sitePayload } from '../../../src/lib/sitePayload'
import type { Article, Category, Link, Media, Reply, SiteSetting, Tag, User } from '../../../src/payload-types'
import { searchArticles, SearchQueryError, type SearchResult } from '../../../src/lib/search'

export type { ActiveUsers, Article, Category, Link, Media, Reply, SiteSetting, Tag, User }

export type Page<T> = {
  docs: T[]
  totalDocs: number
  totalPages: number
  page?: number
  limit: number
  hasNextPage: boolean
  hasPrevPage: boolean
}

const payload = (): Payload => sitePayload().payload

/** Every read obeys the collections' access rules; a null user is the anonymous public. */
const asPublic = { overrideAccess: false, user: null } as const
const asVisitor = (user: User) => ({ overrideAccess: false, user: { ...user, collection: 'users' as const } })

/** What a list card needs, and no more. */
const CARD = {
  depth: 1,
  select: { title: true, slug: true, excerpt: true, publishedAt: true, viewCount: true, replyCount: true, lastReplyAt: true, author: true, category: true, tags: true },
  populate: { users: { name: true }, categories: { name: true, slug: true }, tags: { name: true, slug: true } },
} as const

export type ArticleSort = 'new' | 'replied'
export type ArticleFilter = { category?: number; tag?: number; author?: number }

export async function listArticles(
  { page = 1, limit = 10, sort = 'new', ...filter }: { page?: number; limit?: number; sort?: ArticleSort } & ArticleFilter = {},
): Promise<Page<Article>> {
  const where: Where[] = [{ status: { equals: 'published' } }]
  if (sort === 'replied') where.push({ lastReplyAt: { exists: true } })
  if (filter.category) where.push({ category: { equals: filter.category } })
  if (filter.tag) where.push({ tags: { in: [filter.tag] } })
  if (filter.author) where.push({ author: { equals: filter.author } })
  return (await payload().find({
    collection: 'articles',
    ...CARD,
    where: { and: where },
    sort: sort === 'replied' ? '-lastReplyAt' : '-publishedAt',
    page,
    limit,
    ...asPublic,
  })) as unknown as Page<Article> // selected fields only: what a card shows
}

/** A published article with what its page shows, or null. */
export async function getArticle(id: number): Promise<Article | null> {
  const article = (await payload().findByID({
    collection: 'articles',
    id,
    depth: 1,
    populate: { users: { name: true, avatar: true }, categories: { name: true, slug: true }, tags: { name: true, slug: true }, media: { url: true, alt: true, width: true, height: true, sizes: true } },
    disableErrors: true,
    ...asPublic,
  })) as Article | null
  return article?.status === 'published' ? article : null
}

export async function listReplies(
  { article, author, page = 1, limit = 20, newestFirst = false }: { article?: number; author?: number; page?: number; limit?: number; newestFirst?: boolean },
): Promise<Page<Reply>> {
  const where: Where = {}
  if (article) where.article = { equals: article }
  if (author) where.author = { equals: author }
  return (await payload().find({
    collection: 'replies',
    where,
    page,
    limit,
    sort: newestFirst ? '-createdAt' : 'createdAt',
    depth: 1,
    select: { html: true, createdAt: true, author: true, article: true },
    populate: { users: { name: true, avatar: true }, articles: { title: true, slug: true } },
    ...asPublic,
  })) as unknown as Page<Reply> // selected fields only: what a reply shows
}

export async function getSettings(): Promise<SiteSetting> {
  return (await payload().findGlobal({ slug: 'site-settings', depth: 0, ...asPublic })) as SiteSetting
}

export async function listCategories(): Promise<Category[]> {
  const found = await payload().find({ collection: 'categories', limit: 100, sort: 'order', depth: 0, select: { name: true, slug: true, description: true }, ...asPublic })
  return found.docs as Category[]
}

/** The layout's data (site settings and the category navigation), read together. */
export async function getLayoutData(): Promise<{ settings: SiteSetting; categories: Category[] }> {
  const [settings, categories] = await Promise.all([getSettings(), listCategories()])
  return { settings, categories }
}

async function findOneBySlug<T>(collection: 'categories' | 'tags', slug: string): Promise<T | null> {
  const found = await payload().find({ collection, where: { slug: { equals: slug } }, limit: 1, depth: 0, pagination: false, ...asPublic })
  return (found.docs[0] as T | undefined) ?? null
}

export const getCategoryBySlug = (slug: string) => findOneBySlug<Category>('categories', slug)
export const getTagBySlug = (slug: string) => findOneBySlug<Tag>('tags', slug)

export async function listLinks(): Promise<Link[]> {
  return (await payload().find({ collection: 'links', limit: 100, sort: 'order', depth: 0, ...asPublic })).docs as Link[]
}

export async function getUser(id: number): Promise<User | null> {
  return (await payload().findByID({
    collection: 'users',
    id,
    depth: 1,
    select: { name: true, introduction: true, avatar: true, activedAt: true, createdAt: true, roles: true },
    populate: { media: { url: true, sizes: true }, roles: { label: true } },
    disableErrors: true,
    ...asPublic,
  })) as User | null
}

export async function getActiveUsers(): Promise<ActiveUsers> {
  return readActiveUsers(payload())
}

export async function listAll<T>(collection: 'categories' | 'tags' | 'users', fields: string[]): Promise<T[]> {
  const select = Object.fromEntries(fields.map((f) => [f, true]))
  return (await payload().find({ collection, limit: 0, pagination: false, depth: 0, select, ...asPublic })).docs as T[]
}

export async function latestArticlesWithBody(limit = 20): Promise<Article[]> {
  const found = await payload().find({
    collection: 'articles',
    where: { status: { equals: 'published' } },
    sort: '-publishedAt',
    limit,
    depth: 1,
    select: { title: true, slug: true, excerpt: true, html: true, publishedAt: true, updatedAt: true, author: true, category: true, tags: true },
    // Feeds name categories and tags by slug (Atom term) and link to their pages.
    populate: { users: { name: true }, categories: { name: true, slug: true }, tags: { name: true, slug: true } },
    ...asPublic,
  })
  return found.docs as Article[]
}

export type { SearchHit, SearchResult } from '../../../src/lib/search'

/**
 * Full-text search of published articles, the same service GET /api/search
 * answers with. A mistake in the parameters (say, a query over 200
 * characters) comes back as `{ error }`, the service's message, for the page
 * to show.
 */
export async function search(params: { q: string; category?: string; tag?: string; page?: number }): Promise<{ result: SearchResult } | { error: string }> {
  try {
    return { result: await searchArticles(payload(), params) }
  } catch (error) {
    if (error instanceof SearchQueryError) return { error: error.message }
    throw error
  }
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

/** "1 view", "2 views", "1,234 views". */
export function counted(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`
}

// ---------------------------------------------------------------------------
// The visitor. Resolved once per request (frontend/src/middleware.ts puts it
// in Astro.locals.me); pages pass it down, components never look it up.

const SESSION_COOKIE = /(?:^|;\s*)payload-token=([^;]+)/

/**
 * The signed-in visitor (avatar populated), or null, from the session cookie.
 *
 * The token is handed to Payload as a `JWT` credential rather than as a
 * cookie: Payload's cookie strategy applies its CSRF rule (Origin or
 * Sec-Fetch-Site), which is meant for state-changing API calls. Here the
 * site only renders a page for whoever holds the cookie (a GET, which must
 * show the visitor signed in even when they arrive from a link elsewhere),
 * and every form post has already passed Astro's origin check
 * (security.checkOrigin). The token is verified exactly as Payload verifies it.
 */
export async function resolveVisitor(request: Request): Promise<User | null> {
  const token = SESSION_COOKIE.exec(request.headers.get('cookie') ?? '')?.[1]
  if (!token) return null
  try {
    const { user } = await payload().auth({ headers: new Headers({ authorization: `JWT ${decodeURIComponent(token)}` }) })
    if (!user || user.collection !== 'users') return null
    const me = user as unknown as User
    if (typeof me.avatar === 'number') {
      me.avatar = (await payload().findByID({ collection: 'media', id: me.avatar, depth: 0, disableErrors: true, ...asVisitor(me) })) as Media | null
    }
    return me
  } catch {
    return null
  }
}

// ---------------------------------------------------------------------------
// The visitor's writes: the account forms and the reply form post to the
// site, which hands them to Payload's REST handling in this process (no
// network hop) with the visitor's own request headers, so Payload applies
// every rule it applies to a browser calling the API itself (its CSRF check
// included), and the answer's Set-Cookie headers go back to the visitor.

export type AccountReply = {
  ok: boolean
  status: number
  data: { message?: string; errors?: Record<string, string> | { message: string }[]; redirect?: string; [key: string]: unknown }
  setCookies: string[]
}

/** The visitor's headers that Payload's REST handling reads: session, origin checks, client identity. */
const FORWARDED = ['cookie', 'origin', 'referer', 'sec-fetch-site', 'sec-fetch-mode', 'user-agent', 'accept-language']

function asTheVisitor(request: Request, clientAddress?: string): Headers {
  const headers = new Headers()
  for (const name of FORWARDED) {
    const value = request.headers.get(name)
    if (value) headers.set(name, value)
  }
  if (clientAddress) headers.set('x-forwarded-for', clientAddress)
  return headers
}

async function restAsVisitor(method: string, path: string, request: Request, body?: BodyInit, extra: Record<string, string> = {}, clientAddress?: string): Promise<AccountReply> {
  const headers = asTheVisitor(request, clientAddress)
  for (const [k, v] of Object.entries(extra)) headers.set(k, v)
  const apiUrl = new URL(`/api${path}`, request.url)
  const res = await sitePayload().rest(new Request(apiUrl, { method, headers, body }))
  let data: AccountReply['data'] = {}
  try {
    data = (await res.json()) as AccountReply['data']
  } catch {
    data = { message: `The server answered ${res.status}.` }
  }
  return { ok: res.ok, status: res.status, data, setCookies: res.headers.getSetCookie() }
}

/** POSTs a form to an API path (`/accounts/login`, `/replies`, …) as the visitor. */
export async function accountPost(
  path: string,
  request: Request,
  body: Record<string, string | number> | FormData,
  clientAddress?: string,
): Promise<AccountReply> {
  if (body instanceof FormData) return restAsVisitor('POST', path, request, body, {}, clientAddress)
  return restAsVisitor('POST', path, request, JSON.stringify(body), { 'content-type': 'application/json' }, clientAddress)
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

/** A Payload error answer's first field message ("A reply cannot be empty."), else its message. */
export function firstErrorOf(reply: AccountReply): string {
  const errors = reply.data.errors
  if (Array.isArray(errors)) {
    const first = errors[0] as { message?: string; data?: { errors?: { message?: string }[] } } | undefined
    return first?.data?.errors?.[0]?.message ?? first?.message ?? 'Something went wrong. Please try again.'
  }
  return reply.data.message ?? 'Something went wrong. Please try again.'
}

// ---------------------------------------------------------------------------
// Notifications, as the signed-in visitor.

export type NotificationItem = {
  id: number
  kind: string
  createdAt: string
  readAt?: string | null
  article?: { id: number; title: string; slug?: string | null } | number | null
  reply?: { id: number; body?: string } | number | null
  actor?: { id: number; name: string } | number | null
}

export async function listMyNotifications(me: User, page = 1): Promise<Page<NotificationItem>> {
  return (await payload().find({
    collection: 'notifications',
    where: { recipient: { equals: me.id } },
    sort: '-createdAt',
    page,
    limit: 20,
    depth: 1,
    populate: { articles: { title: true, slug: true }, replies: { body: true }, users: { name: true } },
    ...asVisitor(me),
  })) as unknown as Page<NotificationItem>
}

/** Marks the given notifications read (one bulk update, limited by access to the visitor's own). */
export async function markNotificationsRead(me: User, ids: number[]): Promise<void> {
  if (ids.length === 0) return
  await payload().update({ collection: 'notifications', where: { id: { in: ids } }, data: { readAt: new Date().toISOString() }, ...asVisitor(me) })
}

export async function lastRepliesPage(articleId: number, perPage = 20): Promise<number> {
  const { totalDocs } = await payload().count({ collection: 'replies', where: { article: { equals: articleId } }, ...asPublic })
  return Math.max(1, Math.ceil(totalDocs / perPage))
}
