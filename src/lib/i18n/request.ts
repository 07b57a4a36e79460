import { requestedLanguage } from './negotiate'
import { supportedLanguage, type Language } from './languages'
import { translator, type Translate } from './index'

type LanguageRequest = { user?: { language?: string | null } | null; headers: Headers }

/** The language to answer an API request in: the signed-in user's, else the `lang` cookie or Accept-Language, else English. */
export function languageOf(req: LanguageRequest): Language {
  const user = req.user as { language?: string | null } | null | undefined
  return supportedLanguage(user?.language) ?? requestedLanguage(req.headers.get('cookie') ?? undefined, req.headers.get('accept-language') ?? undefined) ?? 'en'
}

/** The catalog in the request's language (see languageOf). */
export const translatorFor = (req: LanguageRequest): Translate => translator(languageOf(req))

/**
 * The catalog a collection's validate function or hook answers in: the
 * request's language (languageOf), or English when there is no request with
 * headers (a validation run outside a request).
 */
export const validationTranslator = (req: Partial<LanguageRequest> | null | undefined): Translate =>
  req?.headers ? translatorFor(req as LanguageRequest) : translator('en')
