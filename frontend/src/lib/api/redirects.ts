/**
 * Old addresses that answer 301 (the redirects collection of the import
 * plugin: an imported site's permalinks, `?p=<id>`, categories, tags and
 * authors). Looked up only when no page answered (frontend/src/middleware.ts),
 * so pages that exist never pay for it; answers, found or not, are kept for a
 * minute so a crawler walking old links costs one query per address.
 */
import { LRUCache } from 'lru-cache'

import { normalizeRedirectPath } from '../../../../src/lib/redirectPath'
import { asPublic, composed, payload } from './payload'
import { articlePath } from './refs'

const cache = new LRUCache<string, { to: string | null }>({ max: 10_000, ttl: 60_000 })

/** Where an old address (path and query) now lives, or null. */
export async function findRedirect(pathAndQuery: string): Promise<string | null> {
  if (!composed('import')) return null
  const from = normalizeRedirectPath(pathAndQuery)
  if (!from) return null
  const kept = cache.get(from)
  if (kept) return kept.to
  const { docs } = await payload().find({ collection: 'redirects' as never, where: { from: { equals: from } }, limit: 1, depth: 1, ...asPublic })
  const doc = docs[0] as { to?: { type?: string; url?: string | null; reference?: { value?: unknown } | null } } | undefined
  // A redirect made in the admin may point at an article itself (its current address, while the public may read it).
  const article = doc?.to?.reference?.value as { id?: number; slug?: string } | undefined
  const url = doc?.to?.type === 'custom' ? doc.to.url : article?.id && article.slug ? articlePath({ id: article.id, slug: article.slug }) : undefined
  // Only paths of this site: a redirect is never a way off it.
  const to = url && url.startsWith('/') && !url.startsWith('//') ? url : null
  cache.set(from, { to })
  return to
}

/** Old WordPress addresses of the home page: `/?p=12`, `/?page_id=3`, `/?cat=4`, `/?tag=x`, `/?author=2`. */
export function namesOldContent(url: URL): boolean {
  return url.pathname === '/' && ['p', 'page_id', 'cat', 'tag', 'author'].some((k) => url.searchParams.has(k))
}
