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
  body: Record<string, string> | FormData,
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

/** The URL of a user's avatar at a size, if they have one. */
export function avatarUrl(user: Pick<User, 'avatar'>, size: 'thumbnail' | 'square' = 'thumbnail'): string | undefined {
  const avatar = user.avatar
  if (!avatar || typeof avatar !== 'object') return undefined
  return avatar.sizes?.[size]?.url ?? avatar.url ?? undefined
}
