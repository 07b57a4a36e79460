import type { CollectionAfterChangeHook } from 'payload'

import { transactionDb } from '../../../hooks/lockTransaction'
import { indexArticle, searchDocumentOf } from '../../../src/lib/search'

/**
 * Keeps the article's search vector current, inside the writing transaction,
 * so search never sees a saved article with an old vector. Saves that leave
 * title, excerpt and body alone (counters, status, category) skip the work:
 * status and publish time are checked when searching, not stored in the vector.
 */
export const indexForSearch: CollectionAfterChangeHook = async ({ doc, previousDoc, operation, req }) => {
  const unchanged =
    operation === 'update' &&
    previousDoc?.title === doc.title &&
    previousDoc?.excerpt === doc.excerpt &&
    previousDoc?.html === doc.html
  if (!unchanged) await indexArticle(await transactionDb(req), doc.id, searchDocumentOf(doc))
  return doc
}
