/** Full-text search, the service GET /api/search answers with. */
import { searchArticles, SearchQueryError, type SearchResult } from '../../../../src/plugins/search/searchArticles'
import { payload } from './payload'
import { translator, type Translate } from '../../../../src/lib/i18n'

export type { SearchHit, SearchResult } from '../../../../src/plugins/search/searchArticles'

/**
 * Full-text search of published articles, the same service GET /api/search
 * answers with. A mistake in the parameters (say, a query over 200
 * characters) comes back as `{ error }`, the service's message in the page's
 * language, for the page to show.
 */
export async function search(params: { q: string; category?: string; tag?: string; page?: number }, t: Translate = translator('en')): Promise<{ result: SearchResult } | { error: string }> {
  try {
    return { result: await searchArticles(payload(), params) }
  } catch (error) {
    if (error instanceof SearchQueryError) return { error: error.messageIn(t) }
    throw error
  }
}
