/** Which framework owns a path on the one origin. Payload (in Next.js) owns admin, API and Next's assets. */
const NEXT_PREFIXES = ['/admin', '/api', '/_next', '/login/']

export function ownerOf(url: string | undefined): 'next' | 'astro' | 'health' {
  const path = (url ?? '/').split('?')[0]!
  if (path === '/healthz') return 'health'
  for (const prefix of NEXT_PREFIXES) {
    if (path === prefix || path === prefix.replace(/\/$/, '') || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)) {
      return 'next'
    }
  }
  return 'astro'
}
