/**
 * A reply was posted: tell the author of the reply it answers (the answered
 * one, not the top-level reply an answer to an answer is filed under), and everyone
 * following the article, in-site and by e-mail. The article's author is told
 * by `notify-article-author`, and the reply's writer hears of nothing they did.
 *
 * Every recipient is tried; if any mail failed the job fails afterwards, and
 * its retry skips those already mailed (deliverNotification is idempotent).
 */
import type { Payload } from 'payload'

import { relationId } from '../../lib/relationId'
import { deliverNotification, type NotificationKind } from './deliverNotification'
import { loadArticleOf, loadReply } from './notifyArticleAuthor'
import { oneClickUnsubscribeUrl, unsubscribePageUrl } from './unsubscribe'

/** `answeredReplyId`: the reply that was answered, when it is not the top-level `parent` the answer is filed under. */
export type NotifyReplyThreadData = { replyId: number; answeredReplyId?: number }

const FOLLOWS_BATCH = 500

type Recipient = { kind: NotificationKind; followId?: number }

export async function notifyReplyThread(payload: Payload, { replyId, answeredReplyId }: NotifyReplyThreadData): Promise<void> {
  const reply = await loadReply(payload, 'notify-reply-thread', replyId)
  if (!reply) return
  const articleId = relationId(reply.article)
  if (!articleId) return
  const candidates = new Map<number, Recipient>()

  const parentId = answeredReplyId ?? relationId(reply.parent)
  if (parentId) {
    const parent = await payload.findByID({ collection: 'replies', id: parentId, depth: 0, disableErrors: true, overrideAccess: true, select: { author: true } })
    const parentAuthor = relationId(parent?.author)
    if (parentAuthor) candidates.set(parentAuthor, { kind: 'answer' })
  }
  for await (const follow of followsOf(payload, articleId)) {
    const follower = relationId(follow.follower)
    if (follower && !candidates.has(follower)) candidates.set(follower, { kind: 'followed', followId: follow.id })
  }
  // Most replies answer nobody's reply on an article nobody follows: the article is read only when someone is told.
  if (candidates.size === 0) return
  const article = await loadArticleOf(payload, reply)
  if (!article) return
  const skip = new Set([relationId(reply.author), relationId(article.author)])
  const recipients = new Map([...candidates].filter(([id]) => !skip.has(id)))

  const failures: unknown[] = []
  for (const [recipientId, { kind, followId }] of recipients) {
    try {
      const unsubscribe = followId ? { pageUrl: unsubscribePageUrl(payload, followId), oneClickUrl: oneClickUnsubscribeUrl(payload, followId) } : undefined
      await deliverNotification(payload, { recipientId, kind, reply, article, unsubscribe })
    } catch (error) {
      failures.push(error)
    }
  }
  if (failures.length) throw new AggregateError(failures, `notify-reply-thread: ${failures.length} of ${recipients.size} notifications failed for reply ${reply.id}`)
}

/** An article's follows by keyset, a batch at a time: a popular article's list is never held whole. */
async function* followsOf(payload: Payload, articleId: number) {
  let after = 0
  for (;;) {
    const { docs } = await payload.find({
      collection: 'follows',
      where: { and: [{ article: { equals: articleId } }, { id: { greater_than: after } }] },
      sort: 'id',
      limit: FOLLOWS_BATCH,
      pagination: false,
      depth: 0,
      overrideAccess: true,
      select: { follower: true },
    })
    yield* docs
    if (docs.length < FOLLOWS_BATCH) return
    after = docs[docs.length - 1]!.id
  }
}
