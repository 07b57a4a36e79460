/**
 * The admin in the user's language: Payload's own interface ships Chinese
 * (@payloadcms/translations `zh`), so the admin offers English and Chinese.
 * Payload picks the language from its `payload-lng` cookie, else the
 * browser's Accept-Language; the reader site's language switcher and the
 * profile's language form (frontend/src/pages/language.astro) set that cookie
 * with the user's choice, so the admin follows the profile's `language`.
 *
 * The reader site's, mails' and admin components' own words are in the
 * catalogs of src/lib/i18n (en, zh-CN), which need no plugin.
 */
import { en } from '@payloadcms/translations/languages/en'
import { zh } from '@payloadcms/translations/languages/zh'
import type { Plugin } from 'payload'

export { PAYLOAD_LANGUAGE } from './names'
export { fieldLabelsPlugin } from './fieldLabels'

export const languagesPlugin =
  (): Plugin =>
  (config) => ({
    ...config,
    i18n: {
      ...config.i18n,
      fallbackLanguage: 'en',
      supportedLanguages: { ...config.i18n?.supportedLanguages, en, zh },
    },
  })
