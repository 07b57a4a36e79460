import type { IncomingMessage, ServerResponse } from 'node:http'

/** `%00`, however its hex digit is written: a NUL once the path or query is decoded. */
const ENCODED_NUL = /%00/i

/**
 * A NUL in a path or query (`/tags/%00`, `?where[title][equals]=%00`) names
 * nothing the site can hold (PostgreSQL text refuses it), and reached the
 * database as a 500. Every such request answers 400 before any framework sees
 * it. (A raw NUL byte never gets this far: Node's parser refuses it.)
 * Answers and returns true when it refused the request.
 */
export function refuseNulInUrl(req: IncomingMessage, res: ServerResponse): boolean {
  if (!ENCODED_NUL.test(req.url ?? '')) return false
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end('Bad Request: the address contains a NUL character (%00).\n')
  return true
}
