/**
 * A reply was posted: tell the article's author, in-site and by e-mail.
 *
 * Idempotent, so a retry never notifies twice: the notification is unique per
 * (reply, recipient) in the database, and the mail is sent only while the
 * notification has no `mailedAt`. A failed mail fails the job, which pg-boss
 * retries; the in-site notification is already there and is not repeated.
 */
import type { Payload } from 'payload'

import { sql } from '@payloadcms/db-postgres'

import { getEnv } from '../../lib/env'
import { escapeHtml } from '../../lib/escapeHtml'
import { relationId } from '../../lib/relationId'

export type NotifyArticleAuthorData = { replyId: number }

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string }; data?: { errors?: { message?: string }[] } }
  return e.code === '23505' || e.cause?.code === '23505' || Boolean(e.data?.errors?.some((x) => /unique/i.test(x.message ?? '')))
}

export async function notifyArticleAuthor(payload: Payload, { replyId }: NotifyArticleAuthorData): Promise<void> {
  // Malformed data can never succeed: fail loudly, so it ends in the dead-letter queue.
  if (!Number.isInteger(replyId)) throw new Error(`notify-article-author: replyId must be an integer, got ${JSON.stringify(replyId)}`)
  const reply = await payload.findByID({ collection: 'replies', id: replyId, depth: 0, disableErrors: true, overrideAccess: true })
  if (!reply) return // deleted before we got to it
  const articleId = relationId(reply.article)!
  const article = await payload.findByID({ collection: 'articles', id: articleId, depth: 0, disableErrors: true, overrideAccess: true })
  const recipientId = relationId(article?.author)
  const actorId = relationId(reply.author)
  if (!article || !recipientId || recipientId === actorId) return // no author, or replying to themself

  const notification = await findOrCreateNotification(payload, { recipientId, actorId, articleId, replyId })
  if (notification.mailedAt) return

  const [recipient, actor] = await Promise.all([
    payload.findByID({ collection: 'users', id: recipientId, depth: 0, overrideAccess: true }),
    actorId ? payload.findByID({ collection: 'users', id: actorId, depth: 0, disableErrors: true, overrideAccess: true }) : null,
  ])
  if (!recipient?.email) return
  const { baseUrl, mail } = getEnv()
  const settings = await payload.findGlobal({ slug: 'site-settings', depth: 0, overrideAccess: true })
  const siteName = settings?.siteName || mail.fromName
  const link = `${baseUrl}/articles/${article.id}/${article.slug}#reply-${reply.id}`
  const who = actor?.name ?? 'Someone'
  const excerpt = reply.body.length > 300 ? `${reply.body.slice(0, 300)}…` : reply.body

  await payload.sendEmail({
    to: recipient.email,
    subject: `New reply on “${article.title}”`,
    text: `${who} replied to your article “${article.title}” on ${siteName}:\n\n${excerpt}\n\nRead it: ${link}\n`,
    html:
      `<p><strong>${escapeHtml(who)}</strong> replied to your article “${escapeHtml(article.title)}” on ${escapeHtml(siteName)}:</p>` +
      `<blockquote>${escapeHtml(excerpt).replace(/\n/g, '<br>')}</blockquote>` +
      `<p><a href="${escapeHtml(link)}">Read the reply</a></p>`,
  })
  // One column, no hooks: a full-row update would re-check every foreign key and
  // can lose lock races with concurrent writers for no benefit.
  await payload.db.drizzle.execute(sql`update notifications set mailed_at = now() where id = ${notification.id}`)
}

async function findOrCreateNotification(
  payload: Payload,
  { recipientId, actorId, articleId, replyId }: { recipientId: number; actorId?: number; articleId: number; replyId: number },
) {
  const find = async () =>
    (
      await payload.find({
        collection: 'notifications',
        where: { and: [{ reply: { equals: replyId } }, { recipient: { equals: recipientId } }] },
        limit: 1,
        depth: 0,
        overrideAccess: true,
      })
    ).docs[0]
  const existing = await find()
  if (existing) return existing
  try {
    return await payload.create({
      collection: 'notifications',
      data: { recipient: recipientId, actor: actorId, article: articleId, reply: replyId, kind: 'reply' },
      overrideAccess: true,
    })
  } catch (error) {
    // Another run got there first: theirs is the one.
    if (isUniqueViolation(error)) return (await find())!
    throw error
  }
}
