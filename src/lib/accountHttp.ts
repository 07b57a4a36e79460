/** Small helpers the account endpoints share: bodies, field limits, field errors, the cross-site rule, cookies. */
import { generateCookie, generateExpiredPayloadCookie, parseCookies } from 'payload/shared'
import { ValidationError, type Endpoint, type PayloadRequest } from 'payload'

import { MAX_EMAIL_LENGTH } from './emailAddress'
import { translator, type Translate } from './i18n'
import { translatorFor } from './i18n/request'
import { errorResponse } from './errorResponse'
import { MAX_PASSWORD_LENGTH } from './password'

export type FieldErrors = Record<string, string>

/**
 * A 4xx answer in Payload's error shape naming each field that was wrong, so
 * the form can show the message beside it; `form` is the message about the
 * whole form (no field named). The messages come in the request's language;
 * `t` only words the general one when there is none.
 */
export function fieldErrors(errors: FieldErrors, status = 400, headers?: Headers, t: Translate = translator('en')): Response {
  const { form, ...fields } = errors
  const message = form ?? Object.values(fields)[0] ?? t('error.form.check')
  return errorResponse(status, { message, fields, headers: noStore(headers) })
}

export function noStore(headers = new Headers()): Headers {
  headers.set('Cache-Control', 'no-store')
  return headers
}

/**
 * The longest value each account form field may have, checked before any
 * pattern or hash sees it, so no value costs more than its length. Fields not
 * listed get DEFAULT_FIELD_LIMIT.
 */
export const FIELD_LIMITS: Record<string, number> = {
  email: MAX_EMAIL_LENGTH,
  name: 80,
  introduction: 2000,
  password: MAX_PASSWORD_LENGTH,
  passwordConfirm: MAX_PASSWORD_LENGTH,
  currentPassword: MAX_PASSWORD_LENGTH,
  newPassword: MAX_PASSWORD_LENGTH,
  newPasswordConfirm: MAX_PASSWORD_LENGTH,
  captcha: 16,
  token: 128,
  next: 2048,
  remember: 8,
}
export const DEFAULT_FIELD_LIMIT = 4096

/** Field errors for every value longer than its limit, naming the field and the limit. */
export function overLongFields(body: Record<string, string>, t: Translate = translator('en')): FieldErrors | undefined {
  const errors: FieldErrors = {}
  for (const [field, value] of Object.entries(body)) {
    const limit = FIELD_LIMITS[field] ?? DEFAULT_FIELD_LIMIT
    if (value.length > limit) errors[field] = t('error.form.tooLong', { max: limit, field })
  }
  return Object.keys(errors).length ? errors : undefined
}

/** Payload's ValidationError as field messages (e.g. a taken e-mail found by the unique index), renamed to the form's fields. */
export function validationFieldErrors(error: unknown, rename: Record<string, string> = {}): FieldErrors | undefined {
  if (!(error instanceof ValidationError)) return undefined
  const errors = error.data.errors
  if (!errors.length) return undefined
  return Object.fromEntries(errors.map((e) => [rename[e.path] ?? e.path, e.message]))
}

/**
 * The same rule as Payload's API `csrf` list, for the site's own account
 * forms: a browser's cross-site form post is refused. Browsers mark every
 * request with Sec-Fetch-Site (or, older ones, Origin on a POST); a request
 * with neither comes from a program, which carries no victim's cookies.
 */
export function isCrossSite(req: PayloadRequest): boolean {
  const site = req.headers.get('sec-fetch-site')
  if (site && site !== 'same-origin' && site !== 'none') return true
  const origin = req.headers.get('origin')
  if (origin === null) return false
  const allowed = new Set([...(req.payload.config.csrf ?? []), req.payload.config.serverURL].filter(Boolean))
  return !allowed.has(origin)
}

/**
 * An account endpoint under /api/accounts: a POST from another site is
 * refused before the handler runs, and every POST body is read with the
 * field limits applied (over-long values answer 400 naming the field).
 */
export function accountEndpoint(
  method: 'get' | 'post',
  path: string,
  handler: (req: PayloadRequest, body: Record<string, string>) => Promise<Response>,
  { multipart = false }: { multipart?: boolean } = {},
): Endpoint {
  const run: Endpoint['handler'] = async (req) => {
    if (method === 'get') return handler(req, {})
    if (isCrossSite(req)) return fieldErrors({ form: translatorFor(req)('error.form.crossSite') }, 403)
    // A multipart upload reads its own body (the file), with its own size limit.
    if (multipart) return handler(req, {})
    const body = await readBody(req)
    const tooLong = overLongFields(body, translatorFor(req))
    return tooLong ? fieldErrors(tooLong) : handler(req, body)
  }
  return { path: `/accounts${path}`, method, handler: run }
}

export type SignedInUser = { id: number; email?: string | null; name?: string | null; avatar?: unknown }

export function signedInUser(req: PayloadRequest): SignedInUser | undefined {
  return req.user && req.user.collection === 'users' ? (req.user as unknown as SignedInUser) : undefined
}

export async function siteName(req: PayloadRequest): Promise<string> {
  const settings = await req.payload.findGlobal({ slug: 'site-settings', depth: 0, overrideAccess: true, req })
  return (settings as { siteName?: string }).siteName || 'Inkwell'
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
