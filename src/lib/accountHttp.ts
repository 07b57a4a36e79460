/** Small helpers the account endpoints share: bodies, field errors, cookies. */
import { generateCookie, generateExpiredPayloadCookie, parseCookies } from 'payload/shared'
import type { PayloadRequest } from 'payload'

export type FieldErrors = Record<string, string>

/** A 4xx answer naming each field that was wrong, so the form can show the message beside it. */
export function fieldErrors(errors: FieldErrors, status = 400, headers?: Headers): Response {
  const first = Object.values(errors)[0] ?? 'Please check the form.'
  return Response.json({ message: first, errors }, { status, headers: noStore(headers) })
}

export function noStore(headers = new Headers()): Headers {
  headers.set('Cache-Control', 'no-store')
  return headers
}

/** The JSON or form-encoded body as plain strings (anything else is dropped). */
export async function readBody(req: PayloadRequest): Promise<Record<string, string>> {
  let raw: unknown = {}
  const type = req.headers.get('content-type') ?? ''
  try {
    if (type.includes('application/json')) raw = await req.json!()
    else if (type.includes('form')) raw = Object.fromEntries((await req.formData!()).entries())
  } catch {
    raw = {}
  }
  const body: Record<string, string> = {}
  if (raw && typeof raw === 'object') {
    for (const [k, v] of Object.entries(raw)) if (typeof v === 'string') body[k] = v
    for (const [k, v] of Object.entries(raw)) if (typeof v === 'boolean') body[k] = String(v)
  }
  return body
}

export function cookieValue(req: PayloadRequest, name: string): string | undefined {
  return parseCookies(req.headers).get(name)
}

export function tokenCookieName(req: PayloadRequest): string {
  return `${req.payload.config.cookiePrefix}-token`
}

/**
 * The session cookie: HttpOnly, SameSite=Lax, Secure on https. With "remember
 * me" it lasts as long as the token; without, it is a browser-session cookie.
 */
export function sessionCookie(req: PayloadRequest, token: string, { remember, secure }: { remember: boolean; secure: boolean }): string {
  const tokenExpiration = req.payload.collections.users.config.auth.tokenExpiration
  return generateCookie<false>({
    name: tokenCookieName(req),
    value: token,
    httpOnly: true,
    path: '/',
    sameSite: 'Lax',
    secure,
    expires: remember ? new Date(Date.now() + tokenExpiration * 1000) : undefined,
    returnCookieAsObject: false,
  })
}

export function expiredSessionCookie(req: PayloadRequest): string {
  return generateExpiredPayloadCookie({
    collectionAuthConfig: req.payload.collections.users.config.auth,
    cookiePrefix: req.payload.config.cookiePrefix,
  }) as string
}
