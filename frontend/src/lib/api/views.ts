/** View counts to show. Counting a view is the one-origin server's job (src/server/renderCache.ts countView). */
import type { Article } from '../../../../src/payload-types'
import { displayedViewCounts } from '../../../../src/plugins/activity/views'
import { payload } from './payload'

/** The view counts to show (database + Redis + not yet written), by article id: src/plugins/activity/views.ts displayedViewCounts. */
export function viewCounts(articles: Pick<Article, 'id' | 'viewCount'>[]): Promise<Map<number, number>> {
  return displayedViewCounts(payload(), articles)
}
