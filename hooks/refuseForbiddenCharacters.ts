import { ValidationError, type CollectionBeforeValidateHook, type GlobalBeforeValidateHook, type PayloadRequest } from 'payload'

import type { Translate } from '../src/lib/i18n'
import { validationTranslator } from '../src/lib/i18n/request'

/**
 * Characters no stored text may hold: U+0000 (PostgreSQL refuses it, which
 * surfaced as a 500) and every other character XML 1.0 forbids — C0 controls
 * except tab, line feed and carriage return, U+FFFE/U+FFFF and unpaired
 * surrogates — since one of them in a title makes every feed unreadable.
 * They are refused (400 naming the field) rather than silently removed: they
 * never come from typing, only from a paste gone wrong or a script, and the
 * writer should know their text was not stored as sent. Linear time: one
 * character class and fixed-width look-arounds.
 */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

export type ForbiddenCharacter = { path: string; codePoint: string }

const codePoint = (char: string) => `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`

/** Lexical's editor state: errors name the rich-text field, not a node deep inside it. */
const isEditorState = (value: object) => 'root' in value && typeof (value as { root: unknown }).root === 'object'

/** The first forbidden character in any string of `data`, with the path of the field holding it. */
export function findForbiddenCharacter(data: unknown, path: string[] = [], fieldDepth = Infinity): ForbiddenCharacter | undefined {
  if (typeof data === 'string') {
    const match = FORBIDDEN.exec(data)
    return match ? { path: path.slice(0, fieldDepth).join('.'), codePoint: codePoint(match[0]) } : undefined
  }
  if (!data || typeof data !== 'object') return undefined
  const depth = !Array.isArray(data) && isEditorState(data) ? Math.min(fieldDepth, path.length) : fieldDepth
  for (const [key, value] of Object.entries(data)) {
    const found = findForbiddenCharacter(value, [...path, key], depth)
    if (found) return found
  }
  return undefined
}

export function forbiddenCharacterMessage({ codePoint }: ForbiddenCharacter, t: Translate): string {
  return t('error.forbiddenCharacter', { codePoint })
}

function refuse(data: unknown, slug: string, isGlobal: boolean, req: PayloadRequest) {
  const found = findForbiddenCharacter(data)
  if (!found) return
  throw new ValidationError({
    ...(isGlobal ? { global: slug } : { collection: slug }),
    errors: [{ path: found.path, message: forbiddenCharacterMessage(found, validationTranslator(req)) }],
  })
}

export const refuseForbiddenCharacters: CollectionBeforeValidateHook = ({ data, collection, req }) => {
  refuse(data, collection.slug, false, req)
  return data
}

export const refuseForbiddenCharactersInGlobal: GlobalBeforeValidateHook = ({ data, global, req }) => {
  refuse(data, global.slug, true, req)
  return data
}
