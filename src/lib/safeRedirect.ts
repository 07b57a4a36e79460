/**
 * Where to send a user after login: only a path on this site. Anything that a
 * browser would resolve to another origin (`https://evil.test`, `//evil.test`,
 * `/\evil.test`, `javascript:`) becomes `/`.
 */
/** Control characters (tabs, newlines) are stripped by browsers and can turn `/\t/evil` into `//evil`; backslashes act as slashes. */
export const UNSAFE_REDIRECT_CHARACTERS = /[\u0000-\u001f\u007f\\]/

export function safeRedirect(next: unknown, fallback = '/'): string {
  if (typeof next !== 'string' || next === '') return fallback
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback
  if (UNSAFE_REDIRECT_CHARACTERS.test(next)) return fallback
  try {
    const url = new URL(next, 'http://inkwell.invalid')
    if (url.origin !== 'http://inkwell.invalid') return fallback
    return url.pathname + url.search + url.hash
  } catch {
    return fallback
  }
}
