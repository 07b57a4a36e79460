/**
 * A reply was posted: tell the article's author, in-site and by e-mail
 * (idempotent: see deliverNotification).
 */
import type { Payload } from 'payload'

import type { Article, Reply } from '../../payload-types'
import { relationId } from '../../lib/relationId'
import { deliverNotification } from './deliverNotification'

export type NotifyArticleAuthorData = { replyId: number }

const REPLY_FIELDS = { article: true, author: true, parent: true, html: true, body: true } as const
const ARTICLE_FIELDS = { title: true, slug: true, author: true } as const

/** The reply's fields a notification uses, or null when it is gone (deleted before the job ran). */
export async function loadReply(payload: Payload, job: string, replyId: unknown): Promise<Reply | null> {
  // Malformed data can never succeed: fail loudly, so it ends in the dead-letter queue.
  if (!Number.isInteger(replyId)) throw new Error(`${job}: replyId must be an integer, got ${JSON.stringify(replyId)}`)
  // Only the fields a notification uses: a mail job reads no article body, no SEO, no versions (≥ 50 mails/s a worker).
  return (await payload.findByID({ collection: 'replies', id: replyId as number, depth: 0, disableErrors: true, overrideAccess: true, select: REPLY_FIELDS })) as Reply | null
}

/** The reply's article (title, slug, author), or null when it is gone. */
export async function loadArticleOf(payload: Payload, reply: Reply): Promise<Article | null> {
  const id = relationId(reply.article)
  if (!id) return null
  return (await payload.findByID({ collection: 'articles', id, depth: 0, disableErrors: true, overrideAccess: true, select: ARTICLE_FIELDS })) as Article | null
}

/** The reply and its article, or null when either is gone (deleted before the job ran). */
export async function loadReplyAndArticle(payload: Payload, job: string, replyId: unknown) {
  const reply = await loadReply(payload, job, replyId)
  if (!reply) return null
  const article = await loadArticleOf(payload, reply)
  return article ? { reply, article } : null
}

export async function notifyArticleAuthor(payload: Payload, { replyId }: NotifyArticleAuthorData): Promise<void> {
  const found = await loadReplyAndArticle(payload, 'notify-article-author', replyId)
  if (!found) return
  const recipientId = relationId(found.article.author)
  if (!recipientId || recipientId === relationId(found.reply.author)) return // no author, or replying to themself
  await deliverNotification(payload, { recipientId, kind: 'reply', ...found })
}
