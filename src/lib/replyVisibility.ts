/**
 * When a reply counts as public, shared by the features that react to one
 * (notifications, webhooks) without depending on the moderation plugin that
 * holds some back. A reply is public when it has no state (moderation left
 * out) or its state is `published`. It is *first published* when it is
 * created public, or when moderation approves it for the first time:
 * moderation stamps `firstPublishedAt` then, once, so approve → unapprove →
 * approve announces it only once.
 */
type ReplyLike = { status?: string | null; firstPublishedAt?: string | null }

export const isPublicReply = (doc: ReplyLike | undefined): boolean => !doc?.status || doc.status === 'published'

export function firstPublished(operation: 'create' | 'update', doc: ReplyLike, previousDoc: ReplyLike | undefined): boolean {
  if (!isPublicReply(doc)) return false
  if (operation === 'create') return true
  return !previousDoc?.firstPublishedAt && Boolean(doc.firstPublishedAt)
}

/**
 * The reply a new reply answered (the thread files it under the top-level
 * one): kept on the reply by moderation (`answeredReply`) for an approval
 * that comes later; the create's context otherwise.
 */
export function answeredReplyOf(doc: { answeredReply?: number | null }, contextValue: unknown): number | undefined {
  if (typeof doc.answeredReply === 'number') return doc.answeredReply
  return typeof contextValue === 'number' ? contextValue : undefined
}
