import type { CollectionAfterChangeHook } from 'payload'

import { enqueue } from '../../../jobs/queue'
import { ANSWERED_REPLY } from '../../../collections/Replies/hooks/attachToTopLevel'
import { answeredReplyOf, firstPublished } from '../../lib/replyVisibility'

/**
 * The "reply observer, on created": the article's author, the answered
 * reply's author and the article's followers hear about it through the queue
 * (two jobs, so a failing mail to a follower never delays the author's).
 * An answer to an answer is filed under the top-level reply, but it is the
 * answered reply's author who is told: the hook that files it says which.
 * Writes that pass `context.silent` (the demo seed) notify nobody. A reply
 * held by moderation is announced when it is first published (approved), once.
 */
export const notifyOnReply: CollectionAfterChangeHook = async ({ doc, previousDoc, operation, req, context }) => {
  if (context?.silent || !firstPublished(operation, doc, previousDoc)) return doc
  await enqueue(req, 'notify-article-author', { replyId: doc.id }, { key: `reply:${doc.id}` })
  const answeredReplyId = answeredReplyOf(doc, operation === 'create' ? context?.[ANSWERED_REPLY] : undefined)
  await enqueue(req, 'notify-reply-thread', { replyId: doc.id, answeredReplyId }, { key: `reply-thread:${doc.id}` })
  return doc
}
