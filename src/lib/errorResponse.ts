/**
 * The one error shape of the API: Payload's own. Collections throw Payload's
 * errors and Payload answers `{ errors: [{ message }] }`, or, for a
 * ValidationError, `{ errors: [{ name: 'ValidationError', message, data: {
 * errors: [{ path, message }] } }] }`. A custom endpoint that answers itself
 * (to keep its own headers: no-store, cookies, Allow) builds the same body
 * here, so every client (the reader site's one parser in
 * frontend/src/lib/api/errors.ts, the admin, scripts) reads one shape.
 */
export type FieldMessages = Record<string, string>

export type ErrorBody = {
  errors: { name?: 'ValidationError'; message: string; data?: { errors: { path: string; message: string }[] } }[]
}

/** Payload's error body: `message` alone, or naming each wrong field (path → message). */
export function errorBody(message: string, fields?: FieldMessages): ErrorBody {
  const named = Object.entries(fields ?? {})
  if (named.length === 0) return { errors: [{ message }] }
  return { errors: [{ name: 'ValidationError', message, data: { errors: named.map(([path, text]) => ({ path, message: text })) } }] }
}

/** A 4xx/5xx answer in Payload's error shape. Without `message`, the first field's message is the answer's. */
export function errorResponse(
  status: number,
  { message, fields, headers }: { message?: string; fields?: FieldMessages; headers?: HeadersInit } = {},
): Response {
  const text = message ?? Object.values(fields ?? {})[0] ?? 'Something went wrong.'
  return Response.json(errorBody(text, fields), { status, headers })
}
