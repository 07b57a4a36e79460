/**
 * The one e-mail rule of the accounts: at most 254 characters (RFC 5321's
 * path limit), checked before the pattern, and a pattern that runs in linear
 * time (no two parts of it can match the same characters, so a failed match
 * never backtracks). Payload's own e-mail pattern is not applied to users:
 * it is polynomial on long input.
 */
import { translator, type Translate } from './i18n'

export const MAX_EMAIL_LENGTH = 254

/** Local part, `@`, then dot-separated labels; dots are excluded from the labels so the split is unambiguous. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/

/** A sentence naming the rule the address breaks (in the language of `t`), or undefined when it is acceptable. */
export function emailProblem(value: unknown, t: Translate = translator('en')): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return t('validation.emailEmpty')
  if (value.length > MAX_EMAIL_LENGTH) return t('validation.emailLong', { max: MAX_EMAIL_LENGTH })
  if (!EMAIL_PATTERN.test(value)) return t('validation.emailInvalid')
  return undefined
}

/** How every path stores an address: trimmed and lower-cased (as Payload's login looks it up). */
export function normalEmail(value: unknown): string {
  return typeof value === 'string' ? value.trim().toLowerCase() : ''
}
