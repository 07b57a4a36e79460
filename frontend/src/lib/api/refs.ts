/** Pure helpers for pages: names, ids, paths and avatars out of what the reads return. No Payload call. */
import type { Article, Media } from '../../../../src/payload-types'

export { counted } from '../../../../src/lib/counted'

export function nameOf(ref: unknown): string | undefined {
  return ref && typeof ref === 'object' && 'name' in ref ? String((ref as { name: unknown }).name) : undefined
}

export function idOf(ref: unknown): number | undefined {
  if (typeof ref === 'number') return ref
  return ref && typeof ref === 'object' && 'id' in ref ? Number((ref as { id: unknown }).id) : undefined
}

export function articlePath(article: Pick<Article, 'id' | 'slug'>): string {
  return `/articles/${article.id}/${article.slug ?? ''}`
}

export function avatarUrl(user: unknown, size: 'thumbnail' | 'square' = 'thumbnail'): string | undefined {
  const avatar = user && typeof user === 'object' ? (user as { avatar?: unknown }).avatar : undefined
  if (!avatar || typeof avatar !== 'object') return undefined
  const media = avatar as Media
  return media.sizes?.[size]?.url ?? media.url ?? undefined
}

/** Positive integer from a query parameter, else the fallback. */
export function pageParam(url: URL, name = 'page'): number {
  const n = Number(url.searchParams.get(name) ?? '1')
  return Number.isInteger(n) && n > 0 && n < 100_000 ? n : 1
}
