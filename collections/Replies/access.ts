import type { Access, Validate, Where } from 'payload'

import { hasPermission } from '../../src/access'
import { CATALOGS, type MessageKey } from '../../src/lib/i18n'
import { validationTranslator } from '../../src/lib/i18n/request'
import { relationId } from '../../src/lib/relationId'

/** The article is public: published and its publish time has come (not scheduled). */
const onPublishedArticle = (): Where => ({
  and: [{ 'article.status': { equals: 'published' } }, { 'article.publishedAt': { less_than_equal: new Date().toISOString() } }],
})

/**
 * Replies are public where their article is: a reply to an article that is
 * not (or no longer) published is never listed, except to those who read
 * every article.
 */
export const repliesOnReadableArticles: Access = async ({ req }) =>
  (req.user && (await hasPermission(req, 'articles.read.any'))) || onPublishedArticle()

/**
 * A reply (or a follow) goes only to an article its writer can read and that
 * is published: no replies to drafts, even one's own or one a permission lets
 * you see. Checked when the row is written or moved, on every path (REST,
 * GraphQL, Local API), with the writer's own access.
 */
export const publishedArticle =
  (message: MessageKey | (string & {})): Validate =>
  async (value, { req, operation, previousValue }) => {
    const t = validationTranslator(req)
    const id = relationId(value) ?? (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined)
    if (id === undefined) return t('validation.chooseArticle')
    if (operation !== 'create' && id === relationId(previousValue)) return true
    const { totalDocs } = await req.payload.count({
      collection: 'articles',
      where: { and: [{ id: { equals: id } }, { status: { equals: 'published' } }, { publishedAt: { less_than_equal: new Date().toISOString() } }] },
      overrideAccess: false,
      user: req.user,
      req,
    })
    // A catalog key is said in the request's language; a plugin's own sentence (docs/examples) as written.
    return totalDocs > 0 || (Object.hasOwn(CATALOGS.en, message) ? t(message as MessageKey) : message)
  }

export const replyableArticle = publishedArticle('validation.replyArticle')

/** How long after posting its writer may still edit a reply (deleting has no limit). */
export const REPLY_EDIT_WINDOW_MINUTES = 15

/**
 * Holders of `replies.update.any` edit any reply; holders of `replies.create`
 * only their own, and only within the edit window. A query, so REST, GraphQL and the
 * Local API all refuse a late or foreign edit in the database's own filter.
 */
export const ownRecentReplies: Access = async ({ req }) => {
  if (!req.user) return false
  if (await hasPermission(req, 'replies.update.any')) return true
  // Ownership alone grants no write: a writer whose role lost replies.create edits nothing.
  if (!(await hasPermission(req, 'replies.create'))) return false
  const windowStart = new Date(Date.now() - REPLY_EDIT_WINDOW_MINUTES * 60_000).toISOString()
  const ownRecent: Where = { and: [{ author: { equals: req.user.id } }, { createdAt: { greater_than: windowStart } }] }
  return ownRecent
}

/**
 * A reply answers another reply of the same article (it may be any reply there:
 * hooks/attachToTopLevel then moves the answer under that reply's top-level
 * one). Read with the writer's own access, so a reply they cannot see cannot
 * be answered.
 */
export const answerableParent: Validate = async (value, { req, operation, siblingData, previousValue }) => {
  if (value === null || value === undefined || value === '') return true
  const id = relationId(value) ?? (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined)
  if (id === undefined) return validationTranslator(req)('validation.parentId')
  if (operation !== 'create' && id === relationId(previousValue)) return true
  const parent = await req.payload.findByID({
    collection: 'replies',
    id,
    depth: 0,
    select: { article: true },
    disableErrors: true,
    overrideAccess: false,
    user: req.user,
    req,
  })
  const articleId = relationId((siblingData as { article?: unknown }).article)
  if (!parent || relationId(parent.article) !== articleId) return validationTranslator(req)('validation.parentArticle')
  return true
}

/**
 * A reply readers see, in SQL: one definition for every raw reader (counts,
 * the dashboard, active users, moderation). The state column exists with or
 * without the moderation plugin (published by default), so this holds either way.
 * `row` is the table's alias ('' for none).
 */
export const publicReplySql = (row = ''): string => `${row ? `${row}.` : ''}status = 'published'`
