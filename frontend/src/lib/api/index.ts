/**
 * The only way the reader site reaches Payload. Each module reads one concern
 * through the Local API of this same process (./payload.ts), always with
 * `overrideAccess: false`: public pages read as an anonymous visitor, so what
 * they show is exactly what the public may see over REST, and the visitor's
 * own data (`me`, notifications, tokens) is read as that visitor. The
 * visitor's form posts go through Payload's REST handling (./forms.ts), and
 * its error answers are read by one parser (./errors.ts). Pages call these
 * and pass the data down: components never read. Types come from the
 * generated payload-types.ts. tests/unit/reader-site-boundary.test.ts keeps
 * every other file of the site from reaching Payload itself.
 */
export type { ActiveUsers } from '../../../../src/plugins/activity/activeUsers'
export type { Article, Category, Link, Media, Reply, SiteSetting, Tag, User } from '../../../../src/payload-types'
export type { Page, SiteFeatures } from './payload'
export { composed, siteFeatures } from './payload'

export { articlePath, avatarUrl, counted, idOf, nameOf, pageParam } from './refs'
export { getArticle, latestArticlesWithBody, listArticles, type ArticleFilter, type ArticleSort } from './articles'
export { getPreviewArticle } from './preview'
export { followOf, listReplies, listThreads, threadPageOf, type Thread } from './replies'
export { getCategoryBySlug, getLayoutData, getSettings, getTagBySlug, listCategories, listLinks, siteLanguage } from './site'
export { getActiveUsers, getUser, listAll } from './users'
export { viewCounts } from './views'
export { search, type SearchHit, type SearchResult } from './search'
export { NEW_ARTICLE_PATH, resolveVisitor, type Visitor } from './visitor'
export { accountDelete, accountPost, redirectWithCookies, registrationFormStamp, visitorRequest, type AccountReply } from './forms'
export { apiErrorOf, fieldErrorsOf, firstErrorOf } from './errors'
export { listMyNotifications, markNotificationsRead, unsubscribe, unsubscribeLookup, type NotificationItem } from './notifications'
export { mySignInMethods, signInProviders, type LinkedProvider } from './signIn'
export { getUserSwitcher, type UserSwitcherState } from './userSwitcher'
export { handleTokenForm, listMyAccessTokens, type TokenFormResult, type TokenRow } from './accessTokens'
export { findRedirect, namesOldContent } from './redirects'
export { SITEMAP_KINDS, sitemapRows, type SitemapKind, type SitemapRow, type SitemapRows } from './sitemap'
