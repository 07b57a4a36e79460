/**
 * `import:ghost <file.json>`: a Ghost 4/5 export (Settings → Labs → Export)
 * into Inkwell: posts and pages (their rendered HTML, through the same
 * conversion and sanitizer as WordPress content), tags (the first public tag
 * is also the category; #internal tags are skipped), authors (staff users),
 * SEO meta, feature images, dates, featured posts (noted: Inkwell has none),
 * and the old addresses /<slug>/, /tag/<slug>/, /author/<slug>/ as redirects.
 * Ghost's JSON export holds no comments.
 *
 * A Ghost export is one JSON document (no streaming format exists for it), so
 * its size is capped before it is read.
 */
import { readFile } from 'node:fs/promises'

import type { Payload } from 'payload'

import type { CommandIO } from '../../../jobs/commands'
import { withoutTrailingSlashes } from '../../lib/redirectPath'
import { htmlToMarkdown } from './content'
import type { MediaImporter } from './media'
import { ImportFileError, ImportReport } from './report'
import { context, ensureArticle, ensureAuthor, ensureRedirect, ensureTerm, LegacyMap } from './store'
import { assertReadableSize } from './wxr'

export type GhostImportOptions = {
  file: string
  dryRun: boolean
  pagesCategory: string
  owner?: string
  /** The old site's address: Ghost writes `__GHOST_URL__` for it in links and images. */
  siteUrl?: string
  media?: MediaImporter
  io: CommandIO
  maxFileBytes?: number
}

type GhostPost = {
  id: string
  title?: string
  slug?: string
  html?: string | null
  type?: string
  status?: string
  custom_excerpt?: string | null
  feature_image?: string | null
  featured?: boolean | number
  published_at?: string | null
  created_at?: string | null
  updated_at?: string | null
  author_id?: string
  meta_title?: string | null
  meta_description?: string | null
}
type GhostData = {
  posts?: GhostPost[]
  tags?: { id: string; name?: string; slug?: string; description?: string | null; visibility?: string }[]
  users?: { id: string; name?: string; slug?: string; email?: string }[]
  posts_tags?: { post_id: string; tag_id: string; sort_order?: number }[]
  posts_authors?: { post_id: string; author_id: string; sort_order?: number }[]
  posts_meta?: { post_id: string; meta_title?: string | null; meta_description?: string | null }[]
}

function dataOf(json: unknown): { data: GhostData; version: string } {
  const db = (json as { db?: unknown })?.db
  const first = Array.isArray(db) ? db[0] : undefined
  const data = (first as { data?: unknown })?.data
  const version = String((first as { meta?: { version?: unknown } })?.meta?.version ?? '')
  if (!data || typeof data !== 'object' || !Array.isArray((data as GhostData).posts)) {
    throw new ImportFileError('not a Ghost export: expected {"db":[{"meta":…,"data":{"posts":[…]}}]}')
  }
  if (version && !/^[45]\./.test(version)) throw new ImportFileError(`Ghost ${version} exports are not supported (Ghost 4 and 5 are)`)
  return { data: data as GhostData, version }
}

const iso = (value: string | null | undefined): string | undefined => {
  if (!value) return undefined
  const d = new Date(value)
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString()
}

export async function importGhost(payload: Payload, options: GhostImportOptions): Promise<ImportReport> {
  await assertReadableSize(options.file, options.maxFileBytes ?? 256 * 1024 ** 2, 'Ghost export')
  let json: unknown
  try {
    json = JSON.parse(await readFile(options.file, 'utf8'))
  } catch (error) {
    throw new ImportFileError(`not a readable Ghost export: ${(error as Error).message.slice(0, 200)}`)
  }
  const { data, version } = dataOf(json)
  const report = new ImportReport('ghost', options.file, options.dryRun)
  const site = withoutTrailingSlashes(options.siteUrl ?? '')
  const map = await LegacyMap.load(payload, 'ghost', site || 'ghost')
  const ctx = context(payload, report, map)
  const posts = data.posts ?? []
  options.io.log(`${options.file}: Ghost ${version || '?'} export, ${posts.length} posts and pages, ${data.tags?.length ?? 0} tags, ${data.users?.length ?? 0} users`)

  const owner = options.owner?.trim().toLowerCase()
  const isOwner = (u: { slug?: string; email?: string }) => !!owner && (u.slug?.toLowerCase() === owner || u.email?.toLowerCase() === owner)
  const users = new Map<string, number>()
  for (const u of [...(data.users ?? []).filter(isOwner), ...(data.users ?? []).filter((u) => !isOwner(u))]) {
    const id = await ensureAuthor(ctx, { legacyId: u.id, login: u.slug ?? u.id, email: u.email ?? '', name: u.name ?? '' }, isOwner(u))
    if (id === undefined) continue
    users.set(u.id, id)
    if (u.slug) await ensureRedirect(ctx, `/author/${u.slug}/`, `/users/${id}`)
  }

  const tags = new Map<string, { id: number; name: string; slug?: string }>()
  for (const t of data.tags ?? []) {
    if (t.visibility === 'internal' || t.name?.startsWith('#')) {
      report.skip('tags', t.slug ?? t.id, 'an internal tag (#…): Ghost uses them for theming, they are not shown')
      continue
    }
    const id = await ensureTerm(ctx, 'tags', { legacyId: t.id, name: t.name ?? '', slug: t.slug })
    if (id === undefined) continue
    tags.set(t.id, { id, name: t.name ?? '', slug: t.slug })
    if (t.slug && id > 0) {
      const doc = await payload.findByID({ collection: 'tags', id, depth: 0, overrideAccess: true })
      await ensureRedirect(ctx, `/tag/${t.slug}/`, `/tags/${doc.slug}`)
    }
  }
  const tagsOf = new Map<string, string[]>()
  for (const pt of [...(data.posts_tags ?? [])].sort((a, b) => (a.sort_order ?? 0) - (b.sort_order ?? 0))) {
    tagsOf.set(pt.post_id, [...(tagsOf.get(pt.post_id) ?? []), pt.tag_id])
  }
  const authorOf = new Map<string, string>()
  for (const pa of [...(data.posts_authors ?? [])].sort((a, b) => (b.sort_order ?? 0) - (a.sort_order ?? 0))) authorOf.set(pa.post_id, pa.author_id)
  const metaOf = new Map((data.posts_meta ?? []).map((m) => [m.post_id, m]))

  let pagesCategoryId: number | undefined
  const featured: string[] = []
  for (const [i, post] of posts.entries()) {
    options.io.progress(i + 1, posts.length)
    const kind = post.type === 'page' ? 'pages' : 'articles'
    const status = post.status === 'published' || post.status === 'scheduled' ? 'published' : post.status === 'draft' ? 'draft' : undefined
    if (!status) {
      report.skip(kind, post.id, `unknown status "${String(post.status).slice(0, 40)}"`)
      continue
    }
    if (post.featured) featured.push(post.slug ?? post.id)
    const html = (post.html ?? '').split('__GHOST_URL__').join(site)
    const converted = htmlToMarkdown(html)
    if (converted.kept.length) report.note(`${kind} ${post.id}: kept as sanitized HTML: ${converted.kept.join(', ')}`)
    if (converted.dropped.length) report.note(`${kind} ${post.id}: removed (not allowed in articles): ${converted.dropped.join(', ')}`)
    const markdown = options.media ? await options.media.rewrite(ctx, converted.markdown, `${kind} ${post.id}`) : converted.markdown
    const postTags = (tagsOf.get(post.id) ?? []).map((id) => tags.get(id)).filter((t): t is NonNullable<typeof t> => !!t)
    let categoryId: number | undefined
    if (kind === 'pages') {
      pagesCategoryId ??= await ensureTerm(ctx, 'categories', { legacyId: `pages:${options.pagesCategory}`, name: options.pagesCategory })
      categoryId = pagesCategoryId
    } else if (postTags[0]) {
      // Ghost has no categories; its primary tag (the first) plays that part.
      categoryId = await ensureTerm(ctx, 'categories', { legacyId: `primary-tag:${postTags[0].slug ?? postTags[0].name}`, name: postTags[0].name, slug: postTags[0].slug })
    }
    const meta = metaOf.get(post.id)
    const article = await ensureArticle(ctx, {
      legacyId: post.id,
      kind,
      title: post.title ?? '',
      slug: post.slug,
      markdown,
      excerpt: post.custom_excerpt ?? undefined,
      status,
      publishedAt: status === 'published' ? iso(post.published_at) : undefined,
      createdAt: iso(post.created_at),
      updatedAt: iso(post.updated_at),
      authorId: users.get(authorOf.get(post.id) ?? post.author_id ?? ''),
      categoryId,
      tagIds: postTags.map((t) => t.id),
      metaTitle: meta?.meta_title ?? post.meta_title ?? undefined,
      metaDescription: meta?.meta_description ?? post.meta_description ?? undefined,
    })
    if (!article) continue
    const image = post.feature_image?.split('__GHOST_URL__').join(site)
    if (image && options.media && article.created) await options.media.featured(ctx, article.id, image, `${kind} ${post.id}`)
    if (post.slug) await ensureRedirect(ctx, `/${post.slug}/`, `/articles/${article.id}/${article.slug}`)
  }
  if (featured.length) report.note(`featured posts (${featured.slice(0, 50).join(', ')}) were imported as ordinary articles: Inkwell has no pinned articles`)
  if (!site && posts.some((p) => p.html?.includes('__GHOST_URL__'))) {
    report.note('the export links to its own site (__GHOST_URL__): give --url <old site address> to fetch its images; those links were made site-relative')
  }
  return report
}
