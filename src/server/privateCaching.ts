/**
 * Responses that depend on who is asking are never stored by a browser or a
 * shared cache: every answer to a request that carries a session (the
 * session or switch cookie, or an Authorization header: an access token) gets
 * `Cache-Control: private, no-store`, whatever rendered it (the reader site's
 * pages, the admin, the API), unless the response itself declared it the same
 * for everyone (`public`: hashed build files, uploaded media). A signed-in
 * page such as /profile shows the e-mail address and token ids; without this
 * it carried no Cache-Control at all.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'

export const PRIVATE_NO_STORE = 'private, no-store'

const CREDENTIAL_COOKIE = /(?:^|;\s*)(?:payload-token|inkwell-switch)=/

/** True when the answer may depend on the visitor's session. */
export function carriesSession(req: Pick<IncomingMessage, 'headers'>): boolean {
  return CREDENTIAL_COOKIE.test(req.headers.cookie ?? '') || Boolean(req.headers.authorization)
}

/** The Cache-Control a session's answer gets, given the one its handler set. */
export function privateCacheControl(given: string | undefined): string {
  return given && /(?:^|,)\s*public\s*(?:,|$)/i.test(given) ? given : PRIVATE_NO_STORE
}

type Headers = OutgoingHttpHeaders | (string | string[])[] | undefined

/** Reads and removes Cache-Control from the headers handed to writeHead (an object, or a flat list of names and values). */
function takeCacheControl(headers: Headers): { value: string | undefined; rest: Headers } {
  if (!headers) return { value: undefined, rest: headers }
  if (Array.isArray(headers)) {
    let value: string | undefined
    const rest: (string | string[])[] = []
    for (let i = 0; i < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() === 'cache-control') value = String(headers[i + 1])
      else rest.push(headers[i]!, headers[i + 1]!)
    }
    return { value, rest }
  }
  let value: string | undefined
  const rest: OutgoingHttpHeaders = {}
  for (const [name, v] of Object.entries(headers)) {
    if (name.toLowerCase() === 'cache-control') value = v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : String(v)
    else rest[name] = v
  }
  return { value, rest }
}

/** Makes `res` answer with `private, no-store` when `req` carries a session (see above). */
export function withPrivateCaching(req: IncomingMessage, res: ServerResponse): void {
  if (!carriesSession(req)) return
  const writeHead = res.writeHead
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const message = typeof rest[0] === 'string' ? (rest[0] as string) : undefined
    const given = takeCacheControl((message === undefined ? rest[0] : rest[1]) as Headers)
    const current = given.value ?? headerText(this.getHeader('cache-control'))
    this.setHeader('cache-control', privateCacheControl(current))
    const args = message === undefined ? [status, given.rest] : [status, message, given.rest]
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args)
  } as ServerResponse['writeHead']
}

function headerText(value: number | string | string[] | undefined): string | undefined {
  return value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value)
}
