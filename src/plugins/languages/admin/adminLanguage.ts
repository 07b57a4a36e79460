/**
 * The language of the admin's own components: the one Payload's interface is
 * in for the signed-in user (`i18n.language`, 'en' or 'zh', from the
 * `payload-lng` cookie the profile's language choice sets, else the browser),
 * mapped onto the project's catalogs (src/lib/i18n). Custom admin components
 * read their words from those catalogs, the same single source the reader
 * site and mails use, so tests/unit/i18n-catalogs.test.ts covers them too.
 * No React or Payload import: server components, client components and
 * endpoints all use it.
 */
import { supportedLanguage, translator, type Language, type Translate } from '../../../lib/i18n'

/** The catalog language for Payload's `i18n` (server: `req.i18n` / the `i18n` prop; client: useTranslation().i18n). */
export function adminLanguage(i18n: { language?: string } | null | undefined): Language {
  return supportedLanguage(i18n?.language) ?? 'en'
}

/** `t` in the admin user's language. */
export const adminTranslator = (i18n: { language?: string } | null | undefined): Translate => translator(adminLanguage(i18n))
