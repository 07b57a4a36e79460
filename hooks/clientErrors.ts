/**
 * Client mistakes answer 4xx with the field and the rule named, never 500.
 * The before-operation guards stop requests Payload would otherwise crash on;
 * the after-error hook words Payload's own client errors.
 */
import { APIError, NotFound, type AfterErrorHook, type CollectionBeforeOperationHook } from 'payload'

import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../src/lib/databaseOutage'
import { sessionLookupFailedFor } from '../src/lib/payloadPatches'
import { poolIfConnected } from '../src/lib/pool'
import type { Translate } from '../src/lib/i18n'
import { validationTranslator } from '../src/lib/i18n/request'

/**
 * Collections keyed by PostgreSQL serials: `/api/articles/preview` (a GET on a
 * POST-only endpoint) or `/api/articles/abc` named no document; the query
 * that followed failed in the database as a 500.
 */
export const requireNumericId: CollectionBeforeOperationHook = ({ args, collection, req }) => {
  const id = (args as { id?: unknown }).id
  const customId = collection.flattenedFields.some((field) => field.name === 'id')
  if (customId || id === undefined) return args
  // The REST handlers turn the path segment into a number first: "preview" arrives as NaN.
  const valid = typeof id === 'number' ? Number.isSafeInteger(id) : /^\d{1,15}$/.test(String(id))
  if (!valid) throw new NotFound(req.t)
  return args
}

/**
 * A create or update whose body Payload could not read as a document (a
 * form-encoded POST, an empty body) arrived with no data and failed inside
 * field hooks as a 500.
 */
export const requireDocumentBody: CollectionBeforeOperationHook = ({ args, operation, req }) => {
  if ((operation !== 'create' && operation !== 'update') || req.payloadAPI === 'local') return args
  // A bare file upload (multipart without `_payload`) is a document: its data comes from the file.
  if ((args as { data?: unknown }).data !== undefined || req.file) return args
  const type = req.headers?.get('content-type')?.split(';')[0]?.trim()
  const t = validationTranslator(req)
  if (type && type !== 'application/json' && type !== 'multipart/form-data') {
    throw new APIError(t('error.request.contentType', { type, help: t('error.request.bodyHelp') }), 415, undefined, true)
  }
  throw new APIError(t('error.request.noDocument', { help: t('error.request.bodyHelp') }), 400, undefined, true)
}

type FieldError = { label?: string; path?: string; message?: string }

/** Messages of body parsers (busboy, JSON) that mean the client sent something unreadable. */
const UNREADABLE_BODY = /^(Malformed part header|Malformed urlencoded form|Unexpected end of form|Multipart: Boundary not found|Unexpected end of JSON input|Unexpected token .* JSON)/

/** Payload's refusal of an upload over `upload.limits.fileSize` (UPLOAD_MAX_BYTES), in one language. */
export function uploadTooLarge(t: Translate, maxBytes: number): string {
  return t('error.upload.tooLarge', { size: (maxBytes / 1024 / 1024).toFixed(1) })
}

/**
 * Payload words a file over the limit with the config's one `responseOnLimit`
 * (English, set by the guards plugin), thrown while it reads the body: it is
 * told again in the request's language.
 */
function isUploadTooLarge(error: Error, req: Parameters<AfterErrorHook>[0]['req']): boolean {
  const upload = req.payload.config.upload
  return (error as { status?: number }).status === 413 && Boolean(upload?.limits?.fileSize) && error.message === upload?.responseOnLimit
}

export const wordClientErrors: AfterErrorHook = ({ error, req, result }) => {
  if (isUploadTooLarge(error, req)) {
    return { response: { errors: [{ message: uploadTooLarge(validationTranslator(req), req.payload.config.upload.limits!.fileSize!) }] } }
  }
  const fieldErrors = (error as { data?: { errors?: FieldError[] } }).data?.errors
  if (error.name === 'ValidationError' && Array.isArray(fieldErrors) && result?.errors?.[0]) {
    // "The following field is invalid: Name" becomes "Name: Use at most 40 characters."
    const message = fieldErrors.map((e) => `${e.label ?? e.path}: ${e.message}`).join(' ')
    return { response: { errors: [{ ...result.errors[0], message }] } }
  }
  const status = (error as { status?: number }).status
  if ((!status || status >= 500) && UNREADABLE_BODY.test(error.message)) {
    const t = validationTranslator(req)
    return { status: 400, response: { errors: [{ message: t('error.request.unreadable', { error: error.message, help: t('error.request.bodyHelp') }) }] } }
  }
}

/**
 * The database is away (a restart, a crash, a failover): 503 with Retry-After, not 500, so
 * clients and load balancers retry; nothing was written (src/lib/databaseOutage.ts). A signed-in
 * request refused (401/403) because its session could not be looked up while the database was away
 * (watchSessionLookups in src/lib/payloadPatches.ts) was not refused for what it may do: 503 too.
 */
export const databaseOutageAsUnavailable: AfterErrorHook = async ({ error, req }) => {
  const status = (error as { status?: number }).status
  const pool = poolIfConnected(req.payload)
  if (status === 401 || status === 403) {
    if (!sessionLookupFailedFor(req)) return
  } else if ((status && status < 500) || !(await isDatabaseUnavailable(error, pool))) return
  const headers = req.responseHeaders instanceof Headers ? req.responseHeaders : new Headers()
  headers.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
  headers.set('Cache-Control', 'no-store')
  req.responseHeaders = headers
  // Worded from what the request already holds (its user, headers): nothing is read from the database.
  return { status: 503, response: { errors: [{ message: validationTranslator(req)('error.database.unavailable') }] } }
}
