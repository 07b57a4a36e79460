import type { CollectionAfterChangeHook } from 'payload'

import { enqueue } from '../../../jobs/queue'

/**
 * The "reply observer, on created": the article's author hears about it through the queue.
 * Writes that pass `context.silent` (the demo seed) notify nobody.
 */
export const notifyOnReply: CollectionAfterChangeHook = async ({ doc, operation, req, context }) => {
  if (operation === 'create' && !context?.silent) await enqueue(req, 'notify-article-author', { replyId: doc.id }, { key: `reply:${doc.id}` })
  return doc
}
