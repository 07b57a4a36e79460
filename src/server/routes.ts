/** Which framework owns a path on the one origin. Payload (in Next.js) owns admin, API and Next's assets. */
const NEXT_SECTIONS = ['/admin', '/api', '/_next']
/** OAuth sign-in (`/login/<provider>` and its callback); `/login` itself is the reader site's form. */
const NEXT_SUBPATHS = ['/login/']

export function ownerOf(url: string | undefined): 'next' | 'astro' | 'health' {
  const path = (url ?? '/').split('?')[0]!
  if (path === '/healthz') return 'health'
  if (NEXT_SECTIONS.some((s) => path === s || path.startsWith(`${s}/`))) return 'next'
  if (NEXT_SUBPATHS.some((s) => path.startsWith(s) && path.length > s.length)) return 'next'
  return 'astro'
}
