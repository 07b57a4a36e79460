/**
 * How a page talks to Inkwell's render cache (src/server/renderCache.ts):
 * a response header of the tags it depends on (every page depends on the site
 * settings and the category navigation in its layout), and a report when it
 * swallowed an error, so that degraded page is shown but never kept.
 */
import { reportSwallowedError } from '../../../src/lib/renderContext'

type AstroLike = { response: { headers: Headers } }

export function cacheTags(astro: AstroLike, tags: string[]): void {
  astro.response.headers.set('x-cache-tags', [...new Set(['settings', 'categories', ...tags])].join(','))
}

export { reportSwallowedError }
