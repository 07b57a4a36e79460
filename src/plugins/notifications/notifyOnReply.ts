import type { CollectionAfterChangeHook } from 'payload'

import { enqueue } from '../../../jobs/queue'

/**
 * The "reply observer, on created": the article's author, the answered
 * reply's author and the article's followers hear about it through the queue
 * (two jobs, so a failing mail to a follower never delays the author's).
 * Writes that pass `context.silent` (the demo seed) notify nobody.
 */
export const notifyOnReply: CollectionAfterChangeHook = async ({ doc, operation, req, context }) => {
  if (operation !== 'create' || context?.silent) return doc
  await enqueue(req, 'notify-article-author', { replyId: doc.id }, { key: `reply:${doc.id}` })
  await enqueue(req, 'notify-reply-thread', { replyId: doc.id }, { key: `reply-thread:${doc.id}` })
  return doc
}
