import type { Access, Where } from 'payload'

import { hasPermission } from '../../src/access'

/**
 * Public: published, and its publish time has come. An article published
 * with a future time is scheduled: invisible to the public (its page, lists,
 * feeds, sitemap, counts, search, REST and GraphQL) until then, and visible
 * from then on without anyone saving it again (`publish-scheduled` only
 * purges the render cache). Built per request: "now" is the request's time.
 */
export function publicNow(now = new Date()): Where {
  return { and: [{ status: { equals: 'published' } }, { publishedAt: { less_than_equal: now.toISOString() } }] }
}

/**
 * publicNow as SQL over an `articles` row named `a`, for the few lists whose
 * ids are chosen in SQL (see taggedLists.ts); the articles shown are still read
 * through Payload under publicNow, so a difference could hide one, never show one.
 */
export const PUBLIC_SQL = `a.status = 'published' and a.published_at <= now()`
/** The articles publicNow hides, as SQL: drafts (articles_hidden_idx) and those scheduled for later. */
export const HIDDEN_IDS_SQL = `select id from articles where status <> 'published'
  union all select id from articles where status = 'published' and (published_at > now() or published_at is null)`

/** Everyone reads public articles; authors also their own drafts and scheduled ones; holders of the permission everything. */
export const publishedOrOwn: Access = async ({ req }) => {
  if (!req.user) return publicNow()
  if (await hasPermission(req, 'articles.read.any')) return true
  return { or: [publicNow(), { author: { equals: req.user.id } }] }
}
