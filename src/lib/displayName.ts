/**
 * Display names are one line of visible text: shown in headers, bylines,
 * mails (a subject or a "From" line with a line break in it is a header
 * injection) and logs. Refused in them: every control character (C0, tab and
 * line breaks included, DEL, C1), the Unicode line and paragraph separators,
 * and the bidirectional embedding, override and isolate controls (which make
 * a name read as something else). Used by the Users collection's field rule
 * and by sign-in with a provider, which cleans the provider's name instead.
 */
import { translator, type Translate } from './i18n'

export const NAME_CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

const codePoint = (char: string) => `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`

/** The rule's message (in the language of `t`) for a name holding one of them, else undefined. */
export function displayNameProblem(value: unknown, t: Translate = translator('en')): string | undefined {
  if (typeof value !== 'string') return undefined
  const match = NAME_CONTROL_CHARACTERS.exec(value)
  return match ? t('validation.nameLine', { char: codePoint(match[0]) }) : undefined
}

/** A name from elsewhere (a provider's profile) made acceptable: those characters become spaces. */
export function cleanDisplayName(value: string): string {
  return value.replace(new RegExp(NAME_CONTROL_CHARACTERS.source, 'g'), ' ')
}
