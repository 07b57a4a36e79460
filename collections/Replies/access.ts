import type { Access, Validate, Where } from 'payload'

import { hasPermission } from '../../src/access'
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
 * A reply goes only to an article its writer can read and that is published:
 * no replies to drafts, even one's own or one a permission lets you see.
 * Checked when the reply is written or moved, on every path (REST, GraphQL,
 * Local API), with the writer's own access.
 */
export const replyableArticle: Validate = async (value, { req, operation, previousValue }) => {
  const id = relationId(value) ?? (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined)
  if (id === undefined) return 'Choose the article this reply belongs to.'
  if (operation !== 'create' && id === relationId(previousValue)) return true
  const { totalDocs } = await req.payload.count({
    collection: 'articles',
    where: { and: [{ id: { equals: id } }, { status: { equals: 'published' } }, { publishedAt: { less_than_equal: new Date().toISOString() } }] },
    overrideAccess: false,
    user: req.user,
    req,
  })
  return totalDocs > 0 || 'You can only reply to a published article you can read.'
}
