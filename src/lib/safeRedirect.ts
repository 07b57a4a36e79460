/**
 * Where to send a user after login: only a path on this site. Anything that a
 * browser would resolve to another origin (`https://evil.test`, `//evil.test`,
 * `/\evil.test`, `javascript:`) becomes `/`.
 */
export function safeRedirect(next: unknown, fallback = '/'): string {
  if (typeof next !== 'string' || next === '') return fallback
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback
  // Control characters (tabs, newlines) are stripped by browsers and can turn `/\t/evil` into `//evil`.
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return fallback
  try {
    const url = new URL(next, 'http://inkwell.invalid')
    if (url.origin !== 'http://inkwell.invalid') return fallback
    return url.pathname + url.search + url.hash
  } catch {
    return fallback
  }
}
