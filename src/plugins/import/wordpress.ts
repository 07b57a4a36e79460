/**
 * `import:wordpress <file.xml>`: a WordPress export (WXR 1.1/1.2) into Inkwell.
 *
 * Two streaming passes over the file: the first reads what items refer to
 * (authors, categories, tags, attachments), the second the posts and pages
 * with their comments, one item at a time. Every old id is kept in
 * `import_sources`, so importing the same file again changes nothing, and a
 * later export of the same site brings only what is new.
 *
 *   posts        publish → published; future → published at its future time
 *                (scheduled); draft, pending → draft; private → draft (noted);
 *                trash, auto-draft → skipped
 *   pages        articles in the category named by --pages-category ("Pages")
 *   categories   flat (Inkwell categories have no parent): noted when the
 *                export had a hierarchy
 *   comments     threads kept one level deep; approved → published, pending
 *                (0) → held, spam → spam, trash → trash (the moderation
 *                plugin's states; without it only approved ones come, the rest
 *                are skipped with the reason); pingbacks and trackbacks skipped
 *   old links    301 from the permalink, ?p=<id> / ?page_id=<id>,
 *                /YYYY/MM/DD/slug, /category/<slug>, /tag/<slug>, /author/<login>
 */
import type { Payload } from 'payload'

import type { CommandIO } from '../../../jobs/commands'
import { withoutTrailingSlashes } from '../../lib/redirectPath'
import { htmlToMarkdown, type Converted } from './content'
import type { MediaImporter } from './media'
import { ImportReport } from './report'
import { context, ensureArticles, ensureAuthor, ensureRedirect, ensureRedirectGroups, ensureRedirects, ensureTerm, insertCommentsOfArticles, LegacyMap, type ArticleInput, type CommentInput, type ImportContext, type RedirectGroup, type ReplyStatus } from './store'

/** Posts written per transaction (with their comments in one more). */
const BATCH = 25
import { childrenNamed, DEFAULT_WXR_LIMITS, field, readWxr, type WxrLimits, type XmlNode } from './wxr'

export type WordPressImportOptions = {
  file: string
  dryRun: boolean
  /** The category pages are imported into. */
  pagesCategory: string
  /** The login (or e-mail) of the WordPress author who is the site owner. */
  owner?: string
  media?: MediaImporter
  io: CommandIO
  limits?: WxrLimits
  /** Every article through the Local API, none by the bulk path (tests compare the two). */
  articlesThroughHooks?: boolean
}

type Attachment = { id: string; url: string; parent: string; title: string }

const POST_STATUS: Record<string, { status: 'draft' | 'published'; note?: string } | { skip: string }> = {
  publish: { status: 'published' },
  future: { status: 'published' },
  draft: { status: 'draft' },
  pending: { status: 'draft', note: 'pending review posts were imported as drafts' },
  private: { status: 'draft', note: 'private posts were imported as drafts (Inkwell has no private articles)' },
  trash: { skip: 'in the trash' },
  'auto-draft': { skip: 'an auto-draft (never saved by its author)' },
  inherit: { skip: 'a revision' },
}

/** WordPress writes times twice: local (post_date) and UTC (post_date_gmt, 0000-00-00 for drafts). */
function isoOf(gmt: string, local: string): string | undefined {
  const pick = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(gmt.trim()) && !gmt.startsWith('0000') ? `${gmt.trim().replace(' ', 'T')}Z` : local.trim() && !local.startsWith('0000') ? `${local.trim().replace(' ', 'T')}Z` : ''
  const date = new Date(pick)
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString()
}

function meta(item: XmlNode): Map<string, string> {
  const out = new Map<string, string>()
  for (const m of childrenNamed(item, 'wp:postmeta')) out.set(field(m, 'wp:meta_key'), field(m, 'wp:meta_value'))
  return out
}

const decode = (text: string) => text.replace(/&amp;/g, '&').replace(/&#0?39;/g, "'").replace(/&quot;/g, '"')

export async function importWordPress(payload: Payload, options: WordPressImportOptions): Promise<ImportReport> {
  const limits = options.limits ?? DEFAULT_WXR_LIMITS
  const report = new ImportReport('wordpress', options.file, options.dryRun)
  const { io } = options

  // Pass 1: what items refer to.
  let site = ''
  const authors: XmlNode[] = []
  const categories: XmlNode[] = []
  const tags: XmlNode[] = []
  const attachments = new Map<string, Attachment>()
  let items = 0
  for await (const record of readWxr(options.file, limits)) {
    if (record.kind === 'channel') site = withoutTrailingSlashes(record.baseBlogUrl || record.link || record.baseSiteUrl)
    else if (record.kind === 'author') authors.push(record.node)
    else if (record.kind === 'category') categories.push(record.node)
    else if (record.kind === 'tag') tags.push(record.node)
    else if (record.kind === 'item') {
      items++
      if (field(record.node, 'wp:post_type') === 'attachment') {
        const id = field(record.node, 'wp:post_id')
        attachments.set(id, { id, url: field(record.node, 'wp:attachment_url') || field(record.node, 'guid'), parent: field(record.node, 'wp:post_parent'), title: field(record.node, 'title') })
      }
    }
  }
  io.log(`${options.file}: ${authors.length} authors, ${categories.length} categories, ${tags.length} tags, ${items} items (${attachments.size} attachments)`)

  const map = await LegacyMap.load(payload, 'wordpress', site || options.file)
  const ctx = context(payload, report, map, { bulk: !options.articlesThroughHooks })

  // Authors: the owner first, so on an empty site they become its owner.
  const owner = options.owner?.trim().toLowerCase()
  const isOwner = (a: XmlNode) => !!owner && (field(a, 'wp:author_login').toLowerCase() === owner || field(a, 'wp:author_email').toLowerCase() === owner)
  if (owner && !authors.some(isOwner)) report.note(`--owner ${options.owner}: no author of the export has that login or e-mail`)
  const userByLogin = new Map<string, number>()
  const userByWpId = new Map<string, number>()
  for (const a of [...authors.filter(isOwner), ...authors.filter((a) => !isOwner(a))]) {
    const login = field(a, 'wp:author_login')
    const id = await ensureAuthor(ctx, { legacyId: login, login, email: field(a, 'wp:author_email'), name: field(a, 'wp:author_display_name') || [field(a, 'wp:author_first_name'), field(a, 'wp:author_last_name')].join(' ') }, isOwner(a))
    if (id === undefined) continue
    userByLogin.set(login, id)
    if (field(a, 'wp:author_id')) userByWpId.set(field(a, 'wp:author_id'), id)
    await ensureRedirect(ctx, `/author/${login}/`, `/users/${id}`)
    if (field(a, 'wp:author_id')) await ensureRedirect(ctx, `/?author=${field(a, 'wp:author_id')}`, `/users/${id}`)
  }

  const termPath = new Map<string, string>() // 'category:slug' → new path
  if (categories.some((c) => field(c, 'wp:category_parent'))) report.note('categories: the hierarchy was flattened (Inkwell categories have no parent)')
  const categoryIds = new Map<string, number>()
  for (const c of categories) {
    const nicename = field(c, 'wp:category_nicename')
    const id = await ensureTerm(ctx, 'categories', { legacyId: nicename, name: decode(field(c, 'wp:cat_name')), slug: nicename, description: field(c, 'wp:category_description') })
    if (id === undefined) continue
    categoryIds.set(nicename, id)
    await redirectTerm(ctx, 'categories', id, [`/category/${nicename}/`, field(c, 'wp:term_id') ? `/?cat=${field(c, 'wp:term_id')}` : undefined], termPath, `category:${nicename}`)
  }
  const tagIds = new Map<string, number>()
  for (const t of tags) {
    const slug = field(t, 'wp:tag_slug')
    const id = await ensureTerm(ctx, 'tags', { legacyId: slug, name: decode(field(t, 'wp:tag_name')), slug })
    if (id === undefined) continue
    tagIds.set(slug, id)
    await redirectTerm(ctx, 'tags', id, [`/tag/${slug}/`, `/?tag=${slug}`], termPath, `tag:${slug}`)
  }
  let pagesCategoryId: number | undefined

  // Pass 2: posts and pages, read one at a time and written a batch at a time:
  // the articles of a batch in one transaction (ensureArticles), then their
  // redirects in one statement (ensureRedirectGroups), and their comments in
  // one more transaction (insertCommentsOfArticles).
  type Pending = { input: ArticleInput; creator: string; thumbnail?: string; olds: (string | undefined)[]; comments: CommentInput[] }
  let batch: Pending[] = []
  // One batch at a time: two at once deadlock on the articles' roll-up triggers (tried: half the
  // comments of a 300-post file failed with "deadlock detected", retries or not).
  const flush = async () => {
    if (!batch.length) return
    const pending = batch
    batch = []
    const articles = await ensureArticles(ctx, pending.map((p) => p.input))
    const threads: { articleId: number; comments: CommentInput[] }[] = []
    const redirects: RedirectGroup[] = []
    for (const [i, p] of pending.entries()) {
      const article = articles[i]
      if (!article) continue
      const { kind, legacyId: wpId } = p.input
      if (p.creator && !userByLogin.has(p.creator)) report.note(`${kind} ${wpId}: its author "${p.creator}" was not imported; the article has no author`)
      if (p.thumbnail && options.media && article.created) await options.media.featured(ctx, article.id, attachments.get(p.thumbnail)?.url, `${kind} ${wpId}`)
      if (article.id > 0 || ctx.dryRun) redirects.push({ froms: p.olds, to: `/articles/${article.id}/${article.slug}` })
      if (p.comments.length) threads.push({ articleId: article.id, comments: p.comments })
    }
    await ensureRedirectGroups(ctx, redirects)
    await insertCommentsOfArticles(ctx, threads, (html) => htmlToMarkdown(html).markdown)
  }
  let done = 0
  const sticky: string[] = []
  for await (const record of readWxr(options.file, limits)) {
    if (record.kind !== 'item') continue
    done++
    if (done % 50 === 0 || done === items) io.progress(done, items)
    const item = record.node
    const type = field(item, 'wp:post_type')
    const wpId = field(item, 'wp:post_id') || `(item ${done})`
    if (type === 'attachment') continue
    if (type !== 'post' && type !== 'page') {
      report.skip('articles', wpId, `post type "${type || 'none'}" is not an article or a page`)
      continue
    }
    const kind = type === 'page' ? 'pages' : 'articles'
    const rawStatus = field(item, 'wp:status')
    const status = POST_STATUS[rawStatus]
    if (!status) {
      report.skip(kind, wpId, `unknown status "${rawStatus}"`)
      continue
    }
    if ('skip' in status) {
      report.skip(kind, wpId, status.skip)
      continue
    }
    if (status.note) report.note(status.note)
    if (field(item, 'wp:is_sticky') === '1') sticky.push(wpId)

    const postMeta = meta(item)
    const converted = convert(field(item, 'content:encoded'), attachments, report, `${kind} ${wpId}`)
    const media = options.media ? await options.media.rewrite(ctx, converted.markdown, `${kind} ${wpId}`) : converted.markdown
    const categoryRefs = childrenNamed(item, 'category')
    let categoryId = categoryRefs.filter((c) => c.attrs.domain === 'category').map((c) => categoryIds.get(c.attrs.nicename ?? '')).find((id) => id !== undefined)
    if (type === 'page') {
      pagesCategoryId ??= await ensureTerm(ctx, 'categories', { legacyId: `pages:${options.pagesCategory}`, name: options.pagesCategory })
      categoryId = pagesCategoryId
    }
    const tagRefs = categoryRefs.filter((c) => c.attrs.domain === 'post_tag').map((c) => tagIds.get(c.attrs.nicename ?? '')).filter((id): id is number => id !== undefined)
    const creator = field(item, 'dc:creator')
    const published = isoOf(field(item, 'wp:post_date_gmt'), field(item, 'wp:post_date'))
    const slug = field(item, 'wp:post_name')
    const date = field(item, 'wp:post_date')
    const olds = [field(item, 'link'), type === 'page' ? `/?page_id=${wpId}` : `/?p=${wpId}`, /\?(p|page_id)=\d+/.test(field(item, 'guid')) ? field(item, 'guid') : undefined]
    if (type === 'post' && slug && /^\d{4}-\d\d-\d\d/.test(date)) {
      const [y, m, d] = date.slice(0, 10).split('-')
      olds.push(`/${y}/${m}/${d}/${slug}/`, `/${y}/${m}/${slug}/`, `/${slug}/`)
    } else if (type === 'page' && slug) olds.push(`/${slug}/`)
    batch.push({
      input: {
        legacyId: wpId,
        kind,
        title: decode(field(item, 'title')),
        slug,
        markdown: media,
        excerpt: field(item, 'excerpt:encoded') ? htmlToMarkdown(field(item, 'excerpt:encoded')).markdown.replace(/[*_`#>]/g, '') : undefined,
        status: status.status,
        publishedAt: status.status === 'published' ? published : undefined,
        createdAt: published,
        updatedAt: isoOf(field(item, 'wp:post_modified_gmt'), field(item, 'wp:post_modified')),
        authorId: userByLogin.get(creator),
        categoryId,
        tagIds: [...new Set(tagRefs)],
        metaTitle: postMeta.get('_yoast_wpseo_title') || postMeta.get('rank_math_title') || undefined,
        metaDescription: postMeta.get('_yoast_wpseo_metadesc') || postMeta.get('rank_math_description') || undefined,
      },
      creator,
      thumbnail: postMeta.get('_thumbnail_id'),
      olds: olds.map((old) => old && sameSite(old, site)),
      comments: commentsOf(item, report, userByWpId),
    })
    if (batch.length >= BATCH) await flush()
  }
  await flush()
  if (sticky.length) report.note(`sticky posts (${sticky.join(', ')}) were imported as ordinary articles: Inkwell has no pinned articles`)
  return report
}

/** A URL of the old site as a path; another site's URL is of no use as a redirect. */
function sameSite(url: string, site: string): string | undefined {
  if (url.startsWith('/')) return url
  try {
    const parsed = new URL(url)
    if (site && new URL(site).host !== parsed.host) return undefined
    return parsed.pathname + parsed.search
  } catch {
    return undefined
  }
}

async function redirectTerm(ctx: ImportContext, collection: 'categories' | 'tags', id: number, olds: (string | undefined)[], paths: Map<string, string>, key: string) {
  let slug = ''
  if (id > 0) {
    const doc = await ctx.payload.findByID({ collection, id, depth: 0, overrideAccess: true })
    slug = (doc as { slug?: string }).slug ?? ''
  }
  const to = `/${collection}/${slug}`
  paths.set(key, to)
  await ensureRedirects(ctx, olds, to)
}

function convert(html: string, attachments: Map<string, Attachment>, report: ImportReport, what: string): Converted {
  const converted = htmlToMarkdown(html, { attachmentUrl: (id) => attachments.get(id)?.url })
  if (converted.kept.length) report.note(`${what}: kept as sanitized HTML: ${converted.kept.join(', ')}`)
  if (converted.dropped.length) report.note(`${what}: removed (not allowed in articles): ${converted.dropped.join(', ')}`)
  if (converted.shortcodes.length) report.note(`${what}: shortcodes left as text: ${converted.shortcodes.join(', ')}`)
  return converted
}

/** WordPress's comment_approved → the moderation state the reply gets (the moderation plugin's `held`, `spam`, `trash`). */
const COMMENT_STATES: Record<string, ReplyStatus> = { '1': 'published', '0': 'held', spam: 'spam', trash: 'trash' }
const COMMENT_SKIPS: Record<string, string> = { 'post-trashed': 'its post is in the trash' }

function commentsOf(item: XmlNode, report: ImportReport, userByWpId: Map<string, number>): CommentInput[] {
  const out: CommentInput[] = []
  for (const c of childrenNamed(item, 'wp:comment')) {
    const id = field(c, 'wp:comment_id')
    const approved = field(c, 'wp:comment_approved')
    const type = field(c, 'wp:comment_type')
    if (type === 'pingback' || type === 'trackback') {
      report.skip('replies', id, `a ${type}`)
      continue
    }
    const status = COMMENT_STATES[approved]
    if (!status) {
      report.skip('replies', id, COMMENT_SKIPS[approved] ?? `unknown state "${approved.slice(0, 40)}"`)
      continue
    }
    const parent = field(c, 'wp:comment_parent')
    out.push({
      legacyId: id,
      parentLegacyId: parent && parent !== '0' ? parent : undefined,
      authorId: userByWpId.get(field(c, 'wp:comment_user_id')),
      guestName: field(c, 'wp:comment_author'),
      html: field(c, 'wp:comment_content'),
      createdAt: isoOf(field(c, 'wp:comment_date_gmt'), field(c, 'wp:comment_date')) ?? new Date().toISOString(),
      status,
    })
  }
  return out
}
