/**
 * The visitor's writes: the account forms and the reply form post to the
 * site, which hands them to Payload's REST handling in this process (no
 * network hop) with the visitor's own request headers, so Payload applies
 * every rule it applies to a browser calling the API itself (its CSRF check
 * included), and the answer's Set-Cookie headers go back to the visitor.
 */
import { sitePayload } from '../../../../src/lib/sitePayload'
import { formStamp } from '../../../../src/plugins/moderation/registration'

export type AccountReply = {
  ok: boolean
  status: number
  /** The answer's body: on success what the endpoint returns; on failure Payload's error shape (read it with ./errors.ts). */
  data: { message?: string; errors?: unknown[]; redirect?: string; [key: string]: unknown }
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

export async function restAsVisitor(method: string, path: string, request: Request, body?: BodyInit, extra: Record<string, string> = {}, clientAddress?: string): Promise<AccountReply> {
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

/** A 303 to `location` carrying the account reply's cookies (Post/Redirect/Get). */
export function redirectWithCookies(location: string, setCookies: string[]): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' })
  for (const cookie of setCookies) headers.append('set-cookie', cookie)
  return new Response(null, { status: 303, headers })
}

/** The register form's signed render-time stamp (a spam signal: src/plugins/moderation/registration.ts). */
export const registrationFormStamp = (): string => formStamp(sitePayload().payload.secret)
