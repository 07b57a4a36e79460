/**
 * `?access_token=<token>` is the less safe way to present a token (URLs end
 * up in logs, histories and Referer headers). At the door it becomes
 * `Authorization: Bearer <token>` and leaves the URL, so nothing after this
 * point (Next, Astro, the render cache, any log) sees it in a URL; the auth
 * strategy reads the header. A request that also sends Authorization keeps
 * its header: the header wins.
 */
import type { IncomingMessage } from 'node:http'

export function moveAccessTokenToHeader(req: IncomingMessage): void {
  const url = req.url ?? '/'
  const queryStart = url.indexOf('?')
  if (queryStart < 0 || !url.includes('access_token=', queryStart)) return
  const params = new URLSearchParams(url.slice(queryStart + 1))
  const token = params.get('access_token')
  params.delete('access_token')
  const rest = params.toString()
  req.url = url.slice(0, queryStart) + (rest ? `?${rest}` : '')
  if (token && !req.headers.authorization) req.headers.authorization = `Bearer ${token}`
}
