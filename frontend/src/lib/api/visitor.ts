/**
 * The visitor. Resolved once per request (frontend/src/middleware.ts puts it
 * in Astro.locals.me); pages pass it down, components never look it up.
 */
import { createLocalReq, executeAuthStrategies } from 'payload'

import type { Media, User } from '../../../../src/payload-types'
import { asVisitor, payload } from './payload'

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
    // Payload's strategies, as payload.auth() runs them, but not the rest of payload.auth(): it works out
    // every collection's and global's permissions for the admin's UI (~10× the cost of the strategies,
    // on every signed-in page). The site needs two answers of those, asked of the same access functions.
    const p = payload()
    const req = await createLocalReq({ req: { headers } as never }, p)
    const { user } = await executeAuthStrategies({ headers, payload: p, req, canSetHeaders: false, isGraphQL: false } as never)
    if (!user || user.collection !== 'users') return nobody
    req.user = user
    const me = user as unknown as User
    const [avatar, canWrite] = await Promise.all([
      typeof me.avatar === 'number'
        ? (p.findByID({ collection: 'media', id: me.avatar, depth: 0, disableErrors: true, ...asVisitor(me) }) as Promise<Media | null>)
        : Promise.resolve(me.avatar),
      mayWrite(req),
    ])
    me.avatar = avatar
    return { me, canWrite }
  } catch {
    return nobody
  }
}

/**
 * The admin's own answer to "may this user enter the admin and create an article?" (what
 * payload.auth()'s permissions say as canAccessAdmin and collections.articles.create), from
 * the same access functions: Users' `admin` and Articles' `create`.
 */
async function mayWrite(req: Awaited<ReturnType<typeof createLocalReq>>): Promise<boolean> {
  const collections = req.payload.collections
  const admin = collections.users?.config.access.admin
  if (admin && !(await admin({ req }))) return false
  const create = collections.articles?.config.access.create
  return Boolean(create && (await create({ req })))
}

/** Who is visiting, and whether the site should offer them "Write". */
export type Visitor = { me: User | null; canWrite: boolean }

/** Where "Write" takes an author: a new article in the admin. */
export const NEW_ARTICLE_PATH = '/admin/collections/articles/create'
