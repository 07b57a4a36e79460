/**
 * Admin views that only some users may open answer HTTP 403 to the others.
 *
 * A Payload admin view renders inside Payload's RootPage, which always answers
 * 200 (Next's `forbidden()` is caught there and rendered as a page), so the
 * queue console's own refusal page used to arrive with 200: crawlers, monitors
 * and scripts saw success. The one-origin server knows the visitor before Next
 * does, so it decides the status here and lets the view still render its clear
 * explanation as the body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

import { createLocalReq, type Payload } from 'payload'

import { hasPermission } from '../access/permissions'
import { QUEUE_CONSOLE_PATH } from '../admin/QueueConsole/data'

/** Path (under the admin route) → the permission it needs. */
const GUARDED: Record<string, string> = { [QUEUE_CONSOLE_PATH]: 'queue.monitor' }

/** The permission a path needs, or undefined for every path that is not a guarded admin view (checked synchronously, per request). */
export function permissionFor(payload: Payload, pathname: string): string | undefined {
  const admin = payload.config.routes.admin
  if (!pathname.startsWith(`${admin}/`)) return undefined
  return GUARDED[pathname.slice(admin.length).replace(/\/+$/, '')]
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value)
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v)
  }
  return headers
}

/**
 * Makes every success status Next would send on this response 403 (redirects,
 * such as to the login form, and errors pass unchanged). Next sets the status
 * both through `statusCode` and `writeHead`, so both are covered.
 */
function refuseSuccess(res: ServerResponse): void {
  let code = 403
  Object.defineProperty(res, 'statusCode', {
    configurable: true,
    get: () => code,
    set: (value: number) => void (code = value >= 200 && value < 300 ? 403 : value),
  })
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse
  res.writeHead = ((status: number, ...rest: unknown[]) => writeHead(status >= 200 && status < 300 ? 403 : status, ...rest)) as typeof res.writeHead
}

/** For a guarded admin view: the response becomes 403 unless the visitor holds `permission`. */
export async function guardAdminView(payload: Payload, req: IncomingMessage, res: ServerResponse, permission: string): Promise<void> {
  const { user } = await payload.auth({ headers: headersOf(req) })
  const allowed = user ? await hasPermission(await createLocalReq({ user }, payload), permission) : false
  if (!allowed) refuseSuccess(res)
}
