/**
 * How a page tells Inkwell's render cache (src/server/renderCache.ts) what it
 * depends on: a response header of tags. Every page depends on the site
 * settings and the category navigation in its layout.
 */
type AstroLike = { response: { headers: Headers }; request: Request }

export function cacheTags(astro: AstroLike, tags: string[]): void {
  astro.response.headers.set('x-cache-tags', [...new Set(['settings', 'categories', ...tags])].join(','))
}

/** The cache renders pages for itself with this header; such a render is not a reader's view. */
export function isCacheRender(astro: AstroLike): boolean {
  return astro.request.headers.get('x-inkwell-render') === '1'
}
