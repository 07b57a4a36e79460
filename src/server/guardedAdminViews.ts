/**
 * Admin views that only some users may open answer with a real HTTP status:
 * the queue console (queue.monitor) and the import page (import.run).
 *
 * A Payload admin view renders inside Payload's RootPage, which answers 200
 * whatever the view renders (Next's `forbidden()` is caught there and shown as
 * a page), so the queue console's refusal used to arrive with 200. The
 * one-origin server answers for such a path before Next does, with the very
 * rule the view applies (`queueConsoleAccess`), deciding on the same user
 * Payload would: its auth strategies on the request's headers, so a session
 * cookie counts exactly when Payload counts it (its CSRF rule ignores a cookie
 * sent with neither Origin nor Sec-Fetch-Site, as by `curl`).
 *
 *  - holder of the permission: Next renders the view (200);
 *  - not signed in: 307 to the admin's login, which brings them back, as
 *    Payload does for its own admin views;
 *  - signed in without the permission: 403 and a short page, `no-store`.
 *
 * Only GET and HEAD of a guarded path pay for the auth lookup; every other
 * request costs one string comparison.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

import { createLocalReq, executeAuthStrategies, type Payload, type PayloadRequest } from 'payload'

import { IMPORT_PAGE_PATH, importPageAccess } from '../plugins/import/admin/importAccess'
import { QUEUE_CONSOLE_PATH, queueConsoleAccess, signInURL } from '../plugins/jobs/admin/queueConsoleData'

type Access = (req: PayloadRequest) => Promise<'allowed' | 'sign-in' | 'forbidden'>
/** Each guarded view: its path under the admin, the view's own rule, and what the refusal names. */
const GUARDED: Record<string, { access: Access; what: string; permission: string }> = {
  [QUEUE_CONSOLE_PATH]: { access: queueConsoleAccess, what: 'The queue console', permission: 'queue.monitor' },
  [IMPORT_PAGE_PATH]: { access: importPageAccess, what: 'Importing a blog', permission: 'import.run' },
}

/** The guarded view's path a request is for, if any (synchronous, per request). */
function guardedRoute(payload: Payload, method: string | undefined, pathname: string): string | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined
  const admin = payload.config.routes.admin
  if (!pathname.startsWith(`${admin}/`)) return undefined
  let route: string
  try {
    route = decodeURIComponent(pathname.slice(admin.length))
  } catch {
    return undefined
  }
  // Trailing slashes dropped by a scan, not /\/+$/ (polynomial on a long run of slashes).
  let end = route.length
  while (end > 0 && route.charCodeAt(end - 1) === 47 /* '/' */) end--
  route = route.slice(0, end)
  return Object.hasOwn(GUARDED, route) ? route : undefined
}

/** Whether a request is for a guarded admin view (synchronous, per request). */
export function isGuardedAdminView(payload: Payload, method: string | undefined, pathname: string): boolean {
  return guardedRoute(payload, method, pathname) !== undefined
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value)
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v)
  }
  return headers
}

const REFUSAL = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>403 — not allowed</title></head>
<body style="font-family: system-ui, sans-serif"><main style="max-width: 40rem; margin: 4rem auto; padding: 0 1.5rem" data-testid="admin-view-refused">
<h1>403 — not allowed</h1>
<p>__WHAT__ needs the <code>__PERMISSION__</code> permission, which your account does not hold.</p>
<p><a href="__ADMIN__">Back to the admin</a> · <a href="__ADMIN__/login">Sign in as someone else</a></p>
</main></body></html>
`

/**
 * For a guarded admin view: answers the request itself (redirect to sign in,
 * or 403) and returns true, or returns false when Next should render the view.
 */
export async function guardAdminView(payload: Payload, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const headers = headersOf(req)
  const url = new URL(req.url ?? '/', payload.config.serverURL || 'http://localhost')
  const local = await createLocalReq({ req: { headers, url: url.href } }, payload)
  // Payload's strategies, as its own auth resolves a request (not payload.auth(), which
  // would also work out every collection's permissions for the admin's UI).
  local.user = (await executeAuthStrategies({ headers, payload, req: local, canSetHeaders: false, isGraphQL: false })).user
  const guarded = GUARDED[guardedRoute(payload, req.method, url.pathname) ?? QUEUE_CONSOLE_PATH]!
  const access = await guarded.access(local)
  if (access === 'allowed') return false
  if (access === 'sign-in') {
    res.writeHead(307, { Location: signInURL(payload, req.url ?? QUEUE_CONSOLE_PATH), 'Cache-Control': 'no-store' })
    res.end()
    return true
  }
  const body = REFUSAL.replaceAll('__ADMIN__', payload.config.routes.admin).replace('__WHAT__', guarded.what).replace('__PERMISSION__', guarded.permission)
  res.writeHead(403, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' })
  res.end(req.method === 'HEAD' ? undefined : body)
  return true
}
