import type { AccountReply } from './forms'

/** Field messages from an account reply; Payload's own errors (e.g. 429) land on `form`. */
export function fieldErrorsOf(reply: AccountReply): Record<string, string> {
  const { errors, message } = reply.data
  if (errors && !Array.isArray(errors)) return errors
  if (Array.isArray(errors) && errors[0]) return { form: errors[0].message }
  return { form: message ?? 'Something went wrong. Please try again.' }
}


/** A Payload error answer's first field message ("A reply cannot be empty."), else its message. */
export function firstErrorOf(reply: AccountReply): string {
  const errors = reply.data.errors
  if (Array.isArray(errors)) {
    const first = errors[0] as { message?: string; data?: { errors?: { message?: string }[] } } | undefined
    return first?.data?.errors?.[0]?.message ?? first?.message ?? 'Something went wrong. Please try again.'
  }
  return reply.data.message ?? 'Something went wrong. Please try again.'
}

