/** View counts: the ones to show, and counting a reader's view. */
import type { Article } from '../../../../src/payload-types'
import { displayedViewCounts, viewCounterOf } from '../../../../src/lib/views'
import { payload } from './payload'

/** The view counts to show (database + Redis + not yet written), by article id: src/lib/views.ts displayedViewCounts. */
export function viewCounts(articles: Pick<Article, 'id' | 'viewCount'>[]): Promise<Map<number, number>> {
  return displayedViewCounts(payload(), articles)
}

/** Counts one reader's view of an article (in memory; written in the background). */
export function countView(articleId: number): void {
  viewCounterOf(payload())?.hit(articleId)
}
