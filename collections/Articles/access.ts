import type { Access, Where } from 'payload'

import { hasPermission, ownsOr } from '../../src/access'

/**
 * Public: published, and its publish time has come. An article published
 * with a future time is scheduled: invisible to the public (its page, lists,
 * feeds, sitemap, counts, search, REST and GraphQL) until then, and visible
 * from then on without anyone saving it again (`publish-scheduled` only
 * purges the render cache). Built per request: "now" is the request's time.
 */
export function publicNow(now = new Date()): Where {
  // `_status` is Payload's (src/plugins/drafts): equal to `status` on every row; on versions (`draft: true`
  // reads) it keeps a draft out even if a write ever skipped the mirror.
  return { and: [{ status: { equals: 'published' } }, { _status: { equals: 'published' } }, { publishedAt: { less_than_equal: now.toISOString() } }] }
}

/**
 * publicNow as SQL: the one SQL definition of "public article", used by every
 * raw SQL reader (search, sitemap, dashboard, active users, scheduled
 * publishing, tag lists). `alias` names the row (`'a'` gives `a.status`; `''`
 * unqualified; any table with `status` and `published_at`, such as
 * article_search, works); `now` is a SQL expression for the moment ("now()",
 * a parameter such as "$1::timestamptz", or a column). Readers that choose ids
 * in SQL still read the articles through Payload under publicNow, so a
 * difference could hide one, never show one. tests/unit/public-article-sql.test.ts
 * fails when the rule is written out anywhere else.
 */
export function publicArticleSql(alias = 'a', now = 'now()'): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name)
  return `${column('status')} = 'published' and ${column('published_at')} <= ${now}`
}

/** publicArticleSql over an `articles` row named `a`, at the statement's time. */
export const PUBLIC_SQL = publicArticleSql()

/**
 * The published articles whose publish time has not come yet, over an `articles` row named `a`, with
 * `_status` as publicNow has it: the list totals' summary (public_list_counts, migration
 * 20261126_180500) counts them, since the public sees them later without a write, so a list's public
 * total is its count less these (collections/Articles/listTotals.ts). The published rows publicNow
 * hides by time: change with it.
 */
export const COUNTED_NOT_YET_PUBLIC_SQL = `a.status = 'published' and a._status = 'published' and a.published_at > now()`

/** Everyone reads public articles; authors also their own drafts and scheduled ones; holders of the permission everything. */
export const publishedOrOwn: Access = async ({ req }) => {
  if (!req.user) return publicNow()
  if (await hasPermission(req, 'articles.read.any')) return true
  return { or: [publicNow(), { author: { equals: req.user.id } }] }
}

/**
 * Revisions (src/plugins/drafts): an article's author reads its versions, holders of `articles.read.any` all of
 * them; nobody else, not even readers of the published article (a version may be a draft). Versions are rows of
 * `_articles_v`, so the rule names the version's field.
 */
export const readArticleVersions = ownsOr('articles.read.any', 'version.author')
