/**
 * A reply was posted: tell the article's author, in-site and by e-mail
 * (idempotent: see deliverNotification).
 */
import type { Payload } from 'payload'

import { relationId } from '../../lib/relationId'
import { deliverNotification } from './deliverNotification'

export type NotifyArticleAuthorData = { replyId: number }

/** The reply and its article, or null when either is gone (deleted before the job ran). */
export async function loadReplyAndArticle(payload: Payload, job: string, replyId: unknown) {
  // Malformed data can never succeed: fail loudly, so it ends in the dead-letter queue.
  if (!Number.isInteger(replyId)) throw new Error(`${job}: replyId must be an integer, got ${JSON.stringify(replyId)}`)
  const reply = await payload.findByID({ collection: 'replies', id: replyId as number, depth: 0, disableErrors: true, overrideAccess: true })
  if (!reply) return null
  const article = await payload.findByID({ collection: 'articles', id: relationId(reply.article)!, depth: 0, disableErrors: true, overrideAccess: true })
  return article ? { reply, article } : null
}

export async function notifyArticleAuthor(payload: Payload, { replyId }: NotifyArticleAuthorData): Promise<void> {
  const found = await loadReplyAndArticle(payload, 'notify-article-author', replyId)
  if (!found) return
  const recipientId = relationId(found.article.author)
  if (!recipientId || recipientId === relationId(found.reply.author)) return // no author, or replying to themself
  await deliverNotification(payload, { recipientId, kind: 'reply', ...found })
}
