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

import { readActiveUsers, type ActiveUsers } from '../../../src/plugins/activity/activeUsers'
import { onInvalidate } from '../../../src/lib/cacheBus'
import { readHiddenAuthFields } from '../../../src/lib/pool'
import { sitePayload } from '../../../src/lib/sitePayload'
import { getEnv } from '../../../src/lib/env'
import { PROVIDERS } from '../../../src/plugins/oauth/providers'
import type { Article, Category, Link, Media, Reply, SiteSetting, Tag, User } from '../../../src/payload-types'
import { searchArticles, SearchQueryError, type SearchResult } from '../../../src/plugins/search/searchArticles'
import { publicArticlesWithTag } from '../../../collections/Articles/taggedLists'
import { displayedViewCounts } from '../../../src/plugins/activity/views'
import { switcherActive } from '../../../src/plugins/userSwitch/switchCookie'
import { lookUpUnsubscribe as lookUpUnsubscribeOn, unsubscribeByToken as unsubscribeOn } from '../../../src/plugins/notifications/unsubscribe'

export { counted } from '../../../src/lib/counted'
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

/** A user as the site shows them beside their words: name and avatar (depth 2 reaches the avatar's image). */
const PERSON = { users: { name: true, avatar: true }, media: { url: true, sizes: true } } as const

/** What a list card needs, and no more. */
const CARD = {
  depth: 2,
  select: { title: true, slug: true, excerpt: true, language: true, publishedAt: true, viewCount: true, replyCount: true, lastReplyAt: true, author: true, category: true, tags: true },
  populate: { ...PERSON, categories: { name: true, slug: true }, tags: { name: true, slug: true } },
} as const

export type ArticleSort = 'new' | 'replied'
export type ArticleFilter = { category?: number; tag?: number; author?: number }

/**
 * A page of article cards, in two reads: the page's ids and the count first
 * (narrow: no card fields, no tag rows), then the cards of just those ids. In
 * one read, Payload would build the tag list of every article it skips over,
 * so page 500 of a category cost 90 ms instead of 11. A tag's newest articles
 * are chosen in SQL (collections/Articles/taggedLists.ts), where Payload's
 * join on the relation rows costs a tag on 20% of 100,000 articles 130 ms.
 * Both reads obey the Articles access rules for the ids they return.
 */
export async function listArticles(
  { page = 1, limit = 10, sort = 'new', ...filter }: { page?: number; limit?: number; sort?: ArticleSort } & ArticleFilter = {},
): Promise<Page<Article>> {
  const onlyTag = filter.tag && sort === 'new' && !filter.category && !filter.author
  const { ids, totalDocs } = onlyTag
    ? await publicArticlesWithTag(payload(), filter.tag!, { page, limit })
    : await articleIdsPage(listWhere(sort, filter), sort, page, limit)
  const totalPages = Math.ceil(totalDocs / limit)
  return { docs: await cardsOf(ids), totalDocs, totalPages, page, limit, hasNextPage: page < totalPages, hasPrevPage: page > 1 }
}

function listWhere(sort: ArticleSort, filter: ArticleFilter): Where {
  const where: Where[] = [{ status: { equals: 'published' } }]
  if (sort === 'replied') where.push({ lastReplyAt: { exists: true } })
  if (filter.category) where.push({ category: { equals: filter.category } })
  if (filter.tag) where.push({ tags: { in: [filter.tag] } })
  if (filter.author) where.push({ author: { equals: filter.author } })
  return { and: where }
}

async function articleIdsPage(where: Where, sort: ArticleSort, page: number, limit: number) {
  const found = await payload().find({
    collection: 'articles',
    select: {}, // the id alone
    depth: 0,
    where,
    sort: sort === 'replied' ? '-lastReplyAt' : '-publishedAt',
    page,
    limit,
    ...asPublic,
  })
  return { ids: found.docs.map((doc) => doc.id), totalDocs: found.totalDocs }
}

/** The cards of these articles, in this order (an article hidden meanwhile is left out). */
async function cardsOf(ids: number[]): Promise<Article[]> {
  if (ids.length === 0) return []
  const found = await payload().find({ collection: 'articles', ...CARD, where: { id: { in: ids } }, pagination: false, limit: ids.length, ...asPublic })
  const byId = new Map((found.docs as unknown as Article[]).map((doc) => [doc.id, doc])) // selected fields only: what a card shows
  return ids.flatMap((id) => byId.get(id) ?? [])
}

/** A published article with what its page shows, or null. */
export async function getArticle(id: number): Promise<Article | null> {
  const article = (await payload().findByID({
    collection: 'articles',
    id,
    // Depth 2: the author's avatar is an upload of the author.
    depth: 2,
    // The page shows the rendered HTML: the editors' sources (Markdown, the rich-text tree) stay in the database.
    select: { markdown: false, content: false },
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
    ...REPLY_VIEW,
    ...asPublic,
  })) as unknown as Page<Reply> // selected fields only: what a reply shows
}

/** What a shown reply needs: its writer with their avatar, and its article's title and link. */
const REPLY_VIEW = {
  depth: 2,
  select: { html: true, body: true, parent: true, createdAt: true, updatedAt: true, author: true, article: true },
  populate: { ...PERSON, articles: { title: true, slug: true } },
} as const

/** A reply on its own article's page: the article is the page itself, so it is not read again. */
const THREAD_VIEW = {
  depth: 2,
  select: { html: true, body: true, parent: true, createdAt: true, updatedAt: true, author: true },
  populate: PERSON,
} as const

export type Thread = { replies: Page<Reply>; answers: Map<number, Reply[]>; total: number }

/**
 * An article's replies as threads: a page of top-level replies, oldest first,
 * each with all its answers (threads are one level deep), and the count of
 * every reply.
 */
export async function listThreads(article: number, { page = 1, limit = 20 }: { page?: number; limit?: number } = {}): Promise<Thread> {
  const [replies, total] = await Promise.all([
    payload().find({
      collection: 'replies',
      where: { and: [{ article: { equals: article } }, { parent: { exists: false } }] },
      page,
      limit,
      sort: 'createdAt',
      ...THREAD_VIEW,
      ...asPublic,
    }) as unknown as Promise<Page<Reply>>,
    payload().count({ collection: 'replies', where: { article: { equals: article } }, ...asPublic }),
  ])
  const answers = new Map<number, Reply[]>()
  if (replies.docs.length > 0) {
    const found = await payload().find({
      collection: 'replies',
      where: { and: [{ article: { equals: article } }, { parent: { in: replies.docs.map((r) => r.id) } }] },
      sort: 'createdAt',
      pagination: false,
      ...THREAD_VIEW,
      ...asPublic,
    })
    for (const answer of found.docs as Reply[]) {
      const parentId = idOf(answer.parent)!
      answers.set(parentId, [...(answers.get(parentId) ?? []), answer])
    }
  }
  return { replies, answers, total: total.totalDocs }
}

/** The page of an article's threads that shows this reply (its top-level reply's page). */
export async function threadPageOf(reply: { id: number; parent?: unknown; createdAt: string }, articleId: number, perPage = 20): Promise<number> {
  const topId = idOf(reply.parent) ?? reply.id
  const top = topId === reply.id ? reply : await payload().findByID({ collection: 'replies', id: topId, depth: 0, select: { createdAt: true }, disableErrors: true, ...asPublic })
  if (!top) return 1
  const { totalDocs } = await payload().count({
    collection: 'replies',
    where: { and: [{ article: { equals: articleId } }, { parent: { exists: false } }, { createdAt: { less_than_equal: top.createdAt } }] },
    ...asPublic,
  })
  return Math.max(1, Math.ceil(totalDocs / perPage))
}

/** The visitor's follow of an article's replies, if any. */
export async function followOf(me: User, article: number): Promise<number | null> {
  const { docs } = await payload().find({
    collection: 'follows',
    where: { and: [{ article: { equals: article } }, { follower: { equals: me.id } }] },
    limit: 1,
    depth: 0,
    select: { article: true },
    ...asVisitor(me),
  })
  return docs[0]?.id ?? null
}

export const unsubscribeLookup = (token: unknown) => lookUpUnsubscribeOn(payload(), token)
export const unsubscribe = (token: unknown) => unsubscribeOn(payload(), token)

export async function getSettings(): Promise<SiteSetting> {
  return (await payload().findGlobal({ slug: 'site-settings', depth: 0, ...asPublic })) as SiteSetting
}

export async function listCategories(): Promise<Category[]> {
  const found = await payload().find({ collection: 'categories', limit: 100, sort: 'order', depth: 0, select: { name: true, slug: true, description: true }, ...asPublic })
  return found.docs as Category[]
}

type LayoutData = { settings: SiteSetting; categories: Category[] }
let layoutData: Promise<LayoutData> | undefined
// What every page's layout shows changes rarely: it is read once and kept until the cache bus
// announces a change of settings or categories (at once in the writing process, on commit in the others).
onInvalidate((tags) => {
  if (tags.some((tag) => tag === '*' || tag === 'settings' || tag === 'categories')) layoutData = undefined
})

/** The layout's data (site settings and the category navigation), read together and kept until either changes. */
export function getLayoutData(): Promise<LayoutData> {
  if (!layoutData) {
    const reading = Promise.all([getSettings(), listCategories()]).then(([settings, categories]) => ({ settings, categories }))
    layoutData = reading
    // A failed read is not kept: the next page tries again.
    reading.catch(() => {
      if (layoutData === reading) layoutData = undefined
    })
  }
  return layoutData
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

/** The view counts to show (database + Redis + not yet written), by article id: src/plugins/activity/views.ts displayedViewCounts. */
export function viewCounts(articles: Pick<Article, 'id' | 'viewCount'>[]): Promise<Map<number, number>> {
  return displayedViewCounts(payload(), articles)
}

export async function getActiveUsers(): Promise<ActiveUsers> {
  return readActiveUsers(payload())
}

export async function listAll<T>(collection: 'categories' | 'tags' | 'users', fields: string[]): Promise<T[]> {
  const select = Object.fromEntries(fields.map((f) => [f, true]))
  return (await payload().find({ collection, limit: 0, pagination: false, depth: 0, select, ...asPublic })).docs as T[]
}

/**
 * The newest articles with their bodies, for the feeds. Their author, category
 * and tags are read here with one find per collection, in parallel, instead
 * of `depth: 1`: Payload's populate resolves them one collection after another
 * and cost 6.5 ms of a feed's 10 (20 articles), this 3.
 */
export async function latestArticlesWithBody(limit = 20): Promise<Article[]> {
  const found = await payload().find({
    collection: 'articles',
    where: { status: { equals: 'published' } },
    sort: '-publishedAt',
    limit,
    pagination: false, // a feed shows no count: none is made
    depth: 0,
    select: { title: true, slug: true, excerpt: true, html: true, publishedAt: true, updatedAt: true, author: true, category: true, tags: true },
    ...asPublic,
  })
  const articles = found.docs as Article[]
  const idsOf = (refs: unknown[]) => [...new Set(refs.map(idOf).filter((id): id is number => id !== undefined))]
  const byId = <T extends { id: number }>(docs: T[]) => new Map(docs.map((doc) => [doc.id, doc]))
  const read = <T extends { id: number }>(collection: 'users' | 'categories' | 'tags', ids: number[], select: Record<string, true>) =>
    ids.length === 0
      ? Promise.resolve(new Map<number, T>())
      : payload().find({ collection, where: { id: { in: ids } }, select, depth: 0, pagination: false, limit: ids.length, ...asPublic }).then((r) => byId(r.docs as unknown as T[]))
  // Feeds name categories and tags by slug (Atom term) and link to their pages.
  const [authors, categories, tags] = await Promise.all([
    read<User>('users', idsOf(articles.map((a) => a.author)), { name: true }),
    read<Category>('categories', idsOf(articles.map((a) => a.category)), { name: true, slug: true }),
    read<Tag>('tags', idsOf(articles.flatMap((a) => a.tags ?? [])), { name: true, slug: true }),
  ])
  // What the public may not read stays an id, as `depth` leaves it.
  const populate = <T>(ref: unknown, found: Map<number, T>) => found.get(idOf(ref) ?? NaN) ?? ref
  return articles.map((a) => ({
    ...a,
    author: populate(a.author, authors) as Article['author'],
    category: populate(a.category, categories) as Article['category'],
    tags: (a.tags ?? []).map((t) => populate(t, tags)) as Article['tags'],
  }))
}

export type { SearchHit, SearchResult } from '../../../src/plugins/search/searchArticles'

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
/**
 * The session token as a JWT credential, plus what the user switcher reads
 * (its own signed cookie and the host; see src/plugins/userSwitch): a
 * switched owner browses the site as the user they switched to.
 */
function visitorAuthHeaders(request: Request, token: string): Headers {
  const headers = new Headers({ authorization: `JWT ${decodeURIComponent(token)}` })
  const switchCookie = SWITCH_COOKIE_PATTERN.exec(request.headers.get('cookie') ?? '')?.[0]
  if (switchCookie) {
    headers.set('cookie', switchCookie.replace(/^[;\s]+/, ''))
    headers.set('host', request.headers.get('host') ?? new URL(request.url).host)
  }
  return headers
}
const SWITCH_COOKIE_PATTERN = /(?:^|;\s*)inkwell-switch=[^;]+/

export async function resolveVisitor(request: Request): Promise<Visitor> {
  const nobody: Visitor = { me: null, canWrite: false }
  const token = SESSION_COOKIE.exec(request.headers.get('cookie') ?? '')?.[1]
  // A personal access token (`Authorization: Bearer`, or `?access_token=` which the server turns into it) signs the visitor in too.
  const bearer = request.headers.get('authorization')
  if (!token && !bearer?.startsWith('Bearer ')) return nobody
  try {
    const headers = token ? visitorAuthHeaders(request, token) : new Headers({ authorization: bearer! })
    const { user, permissions } = await payload().auth({ headers })
    if (!user || user.collection !== 'users') return nobody
    const me = user as unknown as User
    if (typeof me.avatar === 'number') {
      me.avatar = (await payload().findByID({ collection: 'media', id: me.avatar, depth: 0, disableErrors: true, ...asVisitor(me) })) as Media | null
    }
    // The admin's own answer to "may this user enter the admin and create an article?", from their roles' permissions.
    const canWrite = Boolean(permissions.canAccessAdmin && permissions.collections?.articles?.create)
    return { me, canWrite }
  } catch {
    return nobody
  }
}

/** Who is visiting, and whether the site should offer them "Write". */
export type Visitor = { me: User | null; canWrite: boolean }

/** Where "Write" takes an author: a new article in the admin. */
export const NEW_ARTICLE_PATH = '/admin/collections/articles/create'

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

/** A JSON request to an API path (`PATCH /replies/7`, `DELETE /follows/3`) as the visitor. */
export function visitorRequest(method: 'PATCH' | 'DELETE', path: string, request: Request, body?: Record<string, unknown>): Promise<AccountReply> {
  return body ? restAsVisitor(method, path, request, JSON.stringify(body), { 'content-type': 'application/json' }) : restAsVisitor(method, path, request)
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

/** DELETEs an API path (`/access-tokens/<id>`) as the visitor. */
export function accountDelete(path: string, request: Request, clientAddress?: string): Promise<AccountReply> {
  return restAsVisitor('DELETE', path, request, undefined, {}, clientAddress)
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
  reply?: { id: number; html?: string | null } | number | null
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
    populate: { articles: { title: true, slug: true }, replies: { html: true }, users: { name: true } },
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

// ---------------------------------------------------------------------------
// Sign-in providers (src/lib/oauth): the buttons to show, and the visitor's linked accounts.

/** Providers that are allowed (OAUTH_ALLOWED_PROVIDERS) and configured (client id and secret), in that order. */
export function signInProviders(): { id: string; label: string }[] {
  return getEnv().oauth.providers.map((p) => ({ id: p.id, label: PROVIDERS[p.id].label }))
}

export type LinkedProvider = { provider: string; email?: string | null; createdAt: string }

/** The visitor's linked provider accounts (read as the visitor), and whether the account has a password at all. */
export async function mySignInMethods(me: User): Promise<{ linked: LinkedProvider[]; hasPassword: boolean }> {
  const [{ docs }, stored] = await Promise.all([
    payload().find({ collection: 'oauth-identities', where: { user: { equals: me.id } }, depth: 0, pagination: false, sort: 'createdAt', ...asVisitor(me) }),
    readHiddenAuthFields(payload(), me.id),
  ])
  return {
    linked: docs.map((d) => ({ provider: d.provider, email: d.email, createdAt: d.createdAt })),
    hasPassword: Boolean(stored?.hash),
  }
}

// ---------------------------------------------------------------------------
// The debug-only user switcher (src/plugins/userSwitch): its panel's data, as
// the visitor, through the same REST route the admin uses. Null wherever the
// switcher is not active or the visitor may not use it: nothing is rendered.

export type UserSwitcherState = {
  current: { id: number; name: string }
  switchedFrom: { id: number; name: string } | null
  users: { id: number; name: string; email?: string }[]
}

export async function getUserSwitcher(request: Request, me: User | null): Promise<UserSwitcherState | null> {
  const env = getEnv()
  if (!me || !switcherActive({ debug: env.debug, production: env.production }, request.headers.get('host') ?? new URL(request.url).host)) return null
  const reply = await restAsVisitor('GET', '/user-switch', request)
  return reply.ok ? (reply.data as unknown as UserSwitcherState) : null
}
