/**
 * Which interface language a request asks for: the `lang` cookie (set by the
 * site's language switcher) first, then Accept-Language. Null when it asks for
 * neither supported language: the site's default applies. The server's render
 * cache and the reader site's middleware both call `requestedLanguage`, so the
 * page a key names is the page rendered for it.
 */
import { supportedLanguage, type Language } from './languages'

export const LANGUAGE_COOKIE = 'lang'
const COOKIE = /(?:^|;\s*)lang=([^;]*)/

/** The best supported language of an Accept-Language header (q-values honoured, q=0 refused); null if none. */
export function negotiateLanguage(header: string | undefined): Language | null {
  if (!header) return null
  let best: Language | null = null
  let bestQ = 0
  // Bounded: a header longer than any browser sends is read only in its first 50 parts.
  for (const part of header.split(',', 50)) {
    const [tag, ...params] = part.split(';')
    const lang = supportedLanguage(tag)
    if (!lang) continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const weight = q ? Number(q.slice(2)) : 1
    if (Number.isFinite(weight) && weight > bestQ) {
      best = lang
      bestQ = weight
    }
  }
  return best
}

const negotiated = new Map<string, Language | null>()
/** The language a request asks for (cookie, then Accept-Language), or null for the site's default. */
export function requestedLanguage(cookie: string | undefined, acceptLanguage: string | string[] | undefined): Language | null {
  const fromCookie = cookie ? COOKIE.exec(cookie) : null
  const chosen = fromCookie ? supportedLanguage(fromCookie[1]!.slice(0, 20)) : null
  if (chosen) return chosen
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage
  if (!header) return null
  // Browsers send a handful of distinct values: each is parsed once (bounded memo).
  let answer = negotiated.get(header)
  if (answer === undefined) {
    answer = negotiateLanguage(header)
    if (negotiated.size >= 256) negotiated.clear()
    negotiated.set(header, answer)
  }
  return answer
}
