/**
 * One body format for every API write, whatever form the client sent.
 *
 * Payload reads JSON bodies, and multipart bodies whose fields arrive as JSON
 * in `_payload`. A command line sends more forms than that (curl's `--data`,
 * `-G --data`, `-F`): this step, run before Payload's REST handling, turns each
 * into what Payload reads, so every collection and custom endpoint accepts all
 * of them and answers with the same validation messages:
 *
 *   application/x-www-form-urlencoded  →  a JSON body
 *   a write with no body, only a query →  a JSON body from the query's fields
 *   multipart without `_payload`       →  its text fields also sent as `_payload`
 *   JSON                               →  unchanged, once it is known to parse
 *
 * A body that cannot be read answers 400 naming what is wrong with it.
 */

export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH'])

/**
 * Query parameters that are Payload's own options (or a credential), never
 * document fields: they stay in the query when a query becomes a body.
 */
export const RESERVED_QUERY_PARAMETERS = new Set([
  'access_token',
  'allSessions',
  'autosave',
  'depth',
  'draft',
  'fallback-locale',
  'joins',
  'limit',
  'locale',
  'page',
  'pagination',
  'populate',
  'publishSpecificLocale',
  'select',
  'sort',
  'trash',
  'where',
])

type Fields = Record<string, string | string[]>

/** `tags=1&tags=2` and `tags[]=1&tags[]=2` become arrays; everything else is one string. */
export function fieldsOf(params: Iterable<[string, string]>, skip: Set<string> = new Set()): Fields {
  const fields: Fields = {}
  for (const [rawKey, value] of params) {
    const list = rawKey.endsWith('[]')
    const key = list ? rawKey.slice(0, -2) : rawKey
    if (!key || skip.has(key)) continue
    const previous = fields[key]
    if (previous === undefined) fields[key] = list ? [value] : value
    else fields[key] = Array.isArray(previous) ? [...previous, value] : [previous, value]
  }
  return fields
}

function unreadable(message: string, status = 400): Response {
  return Response.json({ errors: [{ message }] }, { status, headers: { 'Cache-Control': 'no-store' } })
}

function withJsonBody(request: Request, body: unknown): Request {
  const headers = new Headers(request.headers)
  headers.set('content-type', 'application/json')
  headers.delete('content-length')
  headers.delete('transfer-encoding')
  return new Request(request.url, { method: request.method, headers, body: JSON.stringify(body), signal: request.signal })
}

function mediaTypeOf(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase()
}

async function normalizeJson(request: Request): Promise<Request | Response> {
  const text = await request.text()
  if (!text.trim()) return withJsonBody(request, {})
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return unreadable(`The JSON body is malformed: ${(error as Error).message}. Send one JSON object, e.g. {"title": "Hello"}.`)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return unreadable('The JSON body must be one object ({…}), not an array, a string or a number.')
  }
  return withJsonBody(request, parsed)
}

async function normalizeForm(request: Request): Promise<Request | Response> {
  const text = await request.text()
  // URLSearchParams is lenient; a stray `%` (invalid percent-encoding) is the one thing worth naming.
  const badEscape = /%(?![0-9a-f]{2})/i.exec(text)
  if (badEscape) {
    return unreadable(
      `The form body is malformed: "%" at character ${badEscape.index + 1} starts no percent-escape (%XX). Encode "%" as %25, e.g. with curl --data-urlencode.`,
    )
  }
  return withJsonBody(request, fieldsOf(new URLSearchParams(text)))
}

async function normalizeMultipart(request: Request): Promise<Request | Response> {
  if (!/boundary=/i.test(request.headers.get('content-type') ?? '')) {
    return unreadable('The multipart body is malformed: the Content-Type header names no boundary. Let curl -F set it.')
  }
  let form: FormData
  try {
    form = await request.formData()
  } catch (error) {
    return unreadable(`The multipart body is malformed (${(error as Error).message}). Send it with curl -F 'file=@path' -F 'type=…'.`)
  }
  if (!form.has('_payload')) {
    const text = [...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'file')
    if (text.length) form.set('_payload', JSON.stringify(fieldsOf(text)))
  }
  const headers = new Headers(request.headers)
  // The new body has a boundary of its own, which the Request sets.
  headers.delete('content-type')
  headers.delete('content-length')
  headers.delete('transfer-encoding')
  return new Request(request.url, { method: request.method, headers, body: form, signal: request.signal })
}

/** The request as Payload reads it, or a 400 answer when its body cannot be read. */
export async function normalizeRequestBody(request: Request): Promise<Request | Response> {
  if (!WRITE_METHODS.has(request.method.toUpperCase())) return request
  // A read sent as a POST (the admin's relationship inputs do, when the query is long): its form body is the query, which Payload reads itself.
  if (request.headers.get('x-payload-http-method-override')?.toUpperCase() === 'GET') return request
  const type = mediaTypeOf(request)
  if (type === 'application/json') return normalizeJson(request)
  if (type === 'application/x-www-form-urlencoded') return normalizeForm(request)
  if (type === 'multipart/form-data') return normalizeMultipart(request)
  if (type) return request // another type: the endpoint decides (collections answer 415 naming the forms they read)
  // No Content-Type: `curl -X POST -G --data …` puts the fields in the query.
  const body = request.body ? await request.text() : ''
  if (body.length) return new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal })
  const fields = fieldsOf(new URL(request.url).searchParams, RESERVED_QUERY_PARAMETERS)
  return Object.keys(fields).length ? withJsonBody(request, fields) : request
}

type RouteHandler<A> = (request: Request, args: A) => Promise<Response>

/** A REST route handler that reads every body form (see above). */
export function acceptingEveryBodyForm<A>(handler: RouteHandler<A>): RouteHandler<A> {
  return async (request, args) => {
    const normalized = await normalizeRequestBody(request)
    return normalized instanceof Response ? normalized : handler(normalized, args)
  }
}
