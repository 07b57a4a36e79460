import type { CollectionAfterChangeHook } from 'payload'

import { enqueue } from '../../../jobs/queue'

/** The "reply observer, on created": the article's author hears about it through the queue. */
export const notifyOnReply: CollectionAfterChangeHook = async ({ doc, operation, req }) => {
  if (operation === 'create') await enqueue(req, 'notify-article-author', { replyId: doc.id }, { key: `reply:${doc.id}` })
  return doc
}
