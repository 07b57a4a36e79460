import type { CollectionAfterChangeHook } from 'payload'

import { enqueue } from '../../../jobs/queue'
import { ANSWERED_REPLY } from '../../../collections/Replies/hooks/attachToTopLevel'

/**
 * The "reply observer, on created": the article's author, the answered
 * reply's author and the article's followers hear about it through the queue
 * (two jobs, so a failing mail to a follower never delays the author's).
 * An answer to an answer is filed under the top-level reply, but it is the
 * answered reply's author who is told: the hook that files it says which.
 * Writes that pass `context.silent` (the demo seed) notify nobody.
 */
export const notifyOnReply: CollectionAfterChangeHook = async ({ doc, operation, req, context }) => {
  if (operation !== 'create' || context?.silent) return doc
  await enqueue(req, 'notify-article-author', { replyId: doc.id }, { key: `reply:${doc.id}` })
  await enqueue(req, 'notify-reply-thread', { replyId: doc.id, answeredReplyId: answered(context) }, { key: `reply-thread:${doc.id}` })
  return doc
}

const answered = (context: Record<string, unknown> | undefined): number | undefined =>
  typeof context?.[ANSWERED_REPLY] === 'number' ? (context[ANSWERED_REPLY] as number) : undefined
