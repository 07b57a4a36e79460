import type { FieldHook } from 'payload'

import { negotiateLanguage } from '../../../src/lib/i18n/negotiate'

/** A new account's interface language, unless chosen: the one its browser asks for (Accept-Language), if supported. */
export const languageFromBrowser: FieldHook = ({ value, operation, req }) => {
  if (operation !== 'create' || value) return value
  return negotiateLanguage(req.headers?.get?.('accept-language') ?? undefined) ?? value
}
