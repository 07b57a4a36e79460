import type { CollectionAfterChangeHook } from 'payload'

import { transactionDb } from '../../lib/pool'
import { indexArticle, searchDocumentOf } from './searchArticles'

/**
 * Derived data kept by a Payload hook (the rule: src/lib/pool.ts): what search
 * shows must match the saved article, so it is written in the same transaction.
 *
 * Keeps the article's search row (article_search: status, publish time and
 * vector) current, inside the writing transaction, so search never sees a
 * saved article with an old vector or an old status. Saves that leave title,
 * excerpt, body, status and publish time alone (counters, category, tags) skip
 * the work. Search checks the publish time against now when it runs, so a
 * scheduled article appears on time without a write.
 */
export const indexForSearch: CollectionAfterChangeHook = async ({ doc, previousDoc, operation, req }) => {
  const unchanged =
    operation === 'update' &&
    previousDoc?.title === doc.title &&
    previousDoc?.excerpt === doc.excerpt &&
    previousDoc?.html === doc.html &&
    previousDoc?.status === doc.status &&
    previousDoc?.publishedAt === doc.publishedAt
  if (!unchanged) await indexArticle(await transactionDb(req), doc.id, searchDocumentOf(doc))
  return doc
}
