/**
 * The site's one reader of the API's error answers. Every endpoint answers in
 * Payload's shape (src/lib/errorResponse.ts): `{ errors: [{ message }] }`, or
 * for wrong fields `{ errors: [{ message, data: { errors: [{ path, message }] } }] }`.
 */
import type { AccountReply } from './forms'

const FALLBACK = 'Something went wrong. Please try again.'

type ErrorItem = { message?: string; data?: { errors?: { path?: string; message?: string }[] } }

/** An error answer's message and its field messages by path (none when it names no field). */
export function apiErrorOf(data: AccountReply['data']): { message?: string; fields: Record<string, string> } {
  const first = (Array.isArray(data.errors) ? data.errors[0] : undefined) as ErrorItem | undefined
  const fields: Record<string, string> = {}
  for (const e of first?.data?.errors ?? []) if (e.path && e.message && !(e.path in fields)) fields[e.path] = e.message
  return { message: first?.message ?? data.message, fields }
}

/** Field messages to show beside the form's fields; a message about the whole form (e.g. a 429) lands on `form`. */
export function fieldErrorsOf(reply: AccountReply): Record<string, string> {
  const { message, fields } = apiErrorOf(reply.data)
  return Object.keys(fields).length > 0 ? fields : { form: message ?? FALLBACK }
}

/** The answer's first field message ("A reply cannot be empty."), else its message. */
export function firstErrorOf(reply: AccountReply): string {
  const { message, fields } = apiErrorOf(reply.data)
  return Object.values(fields)[0] ?? message ?? FALLBACK
}
