/**
 * One reply notification to one person: the in-site notification, then its
 * e-mail. Idempotent, so a retried job never notifies twice: the notification
 * is unique per (reply, recipient) in the database, and the mail is sent only
 * while the notification has no `mailedAt`. A failed mail throws (the job
 * fails and is retried); the in-site notification is already there and is
 * not repeated.
 */
import type { Payload } from 'payload'

import type { Article, Reply } from '../../payload-types'
import { escapeHtml } from '../../lib/escapeHtml'
import { supportedLanguage, translator, type Translate } from '../../lib/i18n'
import { excerptOf } from '../../lib/excerpt'
import { updateWithoutHooks } from '../../lib/pool'
import { relationId } from '../../lib/relationId'
import { notificationsOptionsOf } from './options'

export type NotificationKind = 'reply' | 'answer' | 'followed'

/** A reply as plain prose for a notification: no Markdown marks, no code blocks. */
export const REPLY_SNIPPET_LENGTH = 300
export function replySnippet(reply: Pick<Reply, 'html' | 'body'>, max = REPLY_SNIPPET_LENGTH): string {
  return excerptOf(reply.html, max)
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string }; data?: { errors?: { message?: string }[] } }
  return e.code === '23505' || e.cause?.code === '23505' || Boolean(e.data?.errors?.some((x) => /unique/i.test(x.message ?? '')))
}

/** What the mail says of the reply, by why the recipient hears of it. */
function wording(t: Translate, kind: NotificationKind, who: string, title: string, site: string): { subject: string; lead: string } {
  const params = { who, title, site }
  if (kind === 'answer') return { subject: t('mail.reply.answerSubject', params), lead: t('mail.reply.answerLead', params) }
  if (kind === 'followed') return { subject: t('mail.reply.newSubject', params), lead: t('mail.reply.followedLead', params) }
  return { subject: t('mail.reply.newSubject', params), lead: t('mail.reply.ownLead', params) }
}

export async function deliverNotification(
  payload: Payload,
  {
    recipientId,
    kind,
    reply,
    article,
    unsubscribe,
  }: {
    recipientId: number
    kind: NotificationKind
    reply: Reply
    article: Article
    /** For follow e-mails: the page the mail links to, and the RFC 8058 one-click address. */
    unsubscribe?: { pageUrl: string; oneClickUrl: string }
  },
): Promise<void> {
  const actorId = relationId(reply.author)
  const notification = await findOrCreateNotification(payload, { recipientId, actorId, articleId: article.id, replyId: reply.id, kind })
  if (notification.mailedAt) return

  const person = { email: true, name: true, language: true } as const
  const [recipient, actor, settings] = await Promise.all([
    payload.findByID({ collection: 'users', id: recipientId, depth: 0, disableErrors: true, overrideAccess: true, select: person }),
    actorId ? payload.findByID({ collection: 'users', id: actorId, depth: 0, disableErrors: true, overrideAccess: true, select: person }) : null,
    payload.findGlobal({ slug: 'site-settings', depth: 0, overrideAccess: true, select: { siteName: true, defaultLanguage: true } }),
  ])
  if (!recipient?.email) return
  const { baseUrl, mailFromName } = notificationsOptionsOf(payload)
  const siteName = settings?.siteName || mailFromName
  const link = `${baseUrl}/articles/${article.id}/${article.slug}#reply-${reply.id}`
  // In the recipient's language (their profile's, else the site's), whoever wrote the reply.
  const t = translator(supportedLanguage(recipient.language) ?? supportedLanguage(settings?.defaultLanguage) ?? 'en')
  const { subject, lead } = wording(t, kind, actor?.name ?? t('mail.reply.someone'), article.title, siteName)
  const snippet = replySnippet(reply)
  const stop = unsubscribe ? `\n${t('mail.reply.stop')}: ${unsubscribe.pageUrl}\n` : ''

  await payload.sendEmail({
    to: recipient.email,
    subject,
    text: `${lead}\n\n${snippet}\n\n${t('mail.reply.readIt')}: ${link}\n${stop}`,
    html:
      `<p>${escapeHtml(lead)}</p>` +
      `<blockquote>${escapeHtml(snippet)}</blockquote>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(t('mail.reply.readReply'))}</a></p>` +
      (unsubscribe ? `<p><small><a href="${escapeHtml(unsubscribe.pageUrl)}">${escapeHtml(t('mail.reply.stop'))}</a></small></p>` : ''),
    // RFC 2369 and RFC 8058: mail clients offer their own one-click "Unsubscribe", which POSTs to this address.
    ...(unsubscribe
      ? { list: { unsubscribe: { url: unsubscribe.oneClickUrl, comment: t('mail.reply.stop') } }, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }
      : {}),
  })
  // One column, no hooks: a full-row update would re-check every foreign key and
  // can lose lock races with concurrent writers for no benefit.
  await updateWithoutHooks(payload, { collection: 'notifications', id: notification.id, data: { mailedAt: new Date().toISOString() } })
}

async function findOrCreateNotification(
  payload: Payload,
  { recipientId, actorId, articleId, replyId, kind }: { recipientId: number; actorId?: number; articleId: number; replyId: number; kind: NotificationKind },
) {
  const find = async () =>
    (
      await payload.find({
        collection: 'notifications',
        where: { and: [{ reply: { equals: replyId } }, { recipient: { equals: recipientId } }] },
        limit: 1,
        // No count query: one row at most.
        pagination: false,
        depth: 0,
        select: { mailedAt: true },
        overrideAccess: true,
      })
    ).docs[0]
  const existing = await find()
  if (existing) return existing
  try {
    return await payload.create({
      collection: 'notifications',
      data: { recipient: recipientId, actor: actorId, article: articleId, reply: replyId, kind },
      overrideAccess: true,
      // Its relations are not read back: at the default depth (2) Payload would load the recipient,
      // the actor (with their roles), the article and the reply again for every mail. (No `select`:
      // the after-change hooks get the selected fields only, and the unread count needs the recipient.)
      depth: 0,
    })
  } catch (error) {
    // Another run got there first: theirs is the one.
    if (isUniqueViolation(error)) return (await find())!
    throw error
  }
}
