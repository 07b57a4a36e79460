import type { FieldHook, PayloadRequest, TextField } from 'payload'

import { validationTranslator } from '../lib/i18n/request'

/** The canonical spelling of a BCP 47 language tag ("zh-cn" → "zh-CN"), or null when it is not one. */
export function canonicalLanguage(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 35) return null
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null
  } catch {
    return null
  }
}

const canonicalize: FieldHook = ({ value }) => canonicalLanguage(value) ?? value

/**
 * A language, as the BCP 47 tag that `<html lang>` takes (en, zh-CN, pt-BR…).
 * Anything else is refused with a message naming the rule; a valid tag is
 * stored in its canonical spelling.
 */
export function languageField(overrides: Partial<TextField> & Pick<TextField, 'name'>): TextField {
  return {
    type: 'text',
    maxLength: 35,
    validate: (value: unknown, { req }: { req: PayloadRequest }) =>
      value === null || value === undefined || value === '' || canonicalLanguage(value) !== null || validationTranslator(req)('validation.languageTag'),
    ...overrides,
    // The field's own hooks are kept beside those given.
    hooks: { ...overrides.hooks, beforeChange: [canonicalize, ...(overrides.hooks?.beforeChange ?? [])] },
  } as TextField
}
