/**
 * The bulk path of a big import's articles: a batch written by a few SQL
 * statements instead of ~13 per article through the Local API (issue 30's
 * 2-minute target; docs/PERFORMANCE.md, "Importing a WordPress site").
 *
 * What a Local API create of an imported article does, and where it is done here
 * (written from the statements one create runs; tests/integration/import-bulk.test.ts
 * compares the rows both paths leave):
 *
 *   hook or rule (plugin)                       here
 *   title/slug/… validation, forbidden and      routed: such an article goes through the Local API
 *   highlight characters, markdown ≤ 500 000    (needsLocalApi), which refuses or strips as always
 *   slug: editor's (usable) or from the title,  same functions (slugify), same advisory locks, one
 *   unique by suffix (slugs)                    look-up of taken slugs per batch; a taken editor's
 *                                               slug is routed (the Local API path makes a new one)
 *   slugOrigin, formerSlugs (slugs)             'editor' | 'automatic'; no former slugs
 *   translate-slug job (slugs, when set up)     routed: automatic slugs go through the Local API
 *   language: site default, zh-CN for Chinese   the same setting, canonicalLanguage and isChineseArticle
 *   html and excerpt (renderBody)               renderMarkdown with the site's link policy, excerptOf
 *   publishedAt stamped on publish              the same rule
 *   _status mirrors status, editedBy (drafts)   copied; no user, so no editor
 *   a version row, latest (drafts/Payload)      copied from the inserted rows in SQL, tags as
 *                                               `version.tags` rels
 *   search row (search)                         indexArticles, in the same transaction
 *   cache purge (renderCache)                   one pg_notify per batch, in the transaction
 *   webhook events (webhooks)                   routed: a batch with a published article goes
 *                                               through the Local API while a webhook listens
 *   dashboard roll-ups                          SQL triggers: they run as for any insert
 *
 * The articles' own dates go in with their rows, and their old ids in the
 * same transaction, so a batch commits whole or not at all.
 */
import type { Payload } from 'payload'

import { isChineseArticle } from '../../../collections/Articles/defaultLanguage'
import { findForbiddenCharacter } from '../../../hooks/refuseForbiddenCharacters'
import { canonicalLanguage } from '../../fields/language'
import { registeredCommands } from '../../../jobs/commands'
import { INVALIDATION_CHANNEL, invalidateLocally } from '../../lib/cacheBus'
import { excerptOf } from '../../lib/excerpt'
import { renderMarkdown } from '../../lib/markdown'
import { poolOf, query } from '../../lib/pool'
import { slugify } from '../../lib/slug'
import { linkPolicyOf } from '../content/options'
import { indexArticles, searchDocumentOf } from '../search/searchArticles'
import type { ArticleInput, ImportContext } from './store'

/** What Articles' fields allow (collections/Articles/index.ts): longer goes through the Local API, which says why it failed. */
const MARKDOWN_MAX = 500_000
const HTML_MAX = 10_000_000
/** The search highlighter's markers (searchArticles.ts): stripped by a hook, so such an article takes the hooks' path. */
const MARKERS = /[\uE000\uE001]/

/** Article data as articleData (store.ts) builds it for the Local API. */
export type ArticleData = {
  title: string
  slug?: string
  format: 'markdown'
  markdown: string
  excerpt?: string
  status: 'draft' | 'published'
  publishedAt?: string
  author?: number
  category?: number
  tags: number[]
  meta?: { title?: string; description?: string }
}

export type BulkArticle = { input: ArticleInput; data: ArticleData }

/** Per import: what the bulk path needs to know once. */
export type BulkSettings = { language: string; translatesSlugs: boolean }

export async function bulkSettings(payload: Payload): Promise<BulkSettings> {
  const settings = await payload.findGlobal({ slug: 'site-settings', depth: 0, overrideAccess: true })
  const siteLanguage = (settings as { defaultLanguage?: string }).defaultLanguage || 'en'
  return {
    // What defaultLanguage gives, through the language field's canonicalize hook.
    language: canonicalLanguage(siteLanguage) ?? siteLanguage,
    translatesSlugs: 'translate-slug' in registeredCommands(payload).jobs,
  }
}

/** An article whose save needs something only the hooks do: it goes through the Local API. */
export function needsLocalApi(data: ArticleData, settings: BulkSettings): boolean {
  if (data.markdown.length > MARKDOWN_MAX) return true
  if (settings.translatesSlugs && !data.slug) return true
  const strings = [data.title, data.slug, data.markdown, data.excerpt, data.meta?.title, data.meta?.description]
  return !!findForbiddenCharacter(strings) || strings.some((s) => typeof s === 'string' && MARKERS.test(s))
}

/** Is any webhook listening to what a new published article announces? Then its hooks must run. */
async function webhooksListen(payload: Payload): Promise<boolean> {
  if (!(payload.collections as Record<string, unknown>).webhooks) return false
  const rows = await query(payload, `select 1 from webhooks where enabled and events ?| array['article.published', 'article.scheduled'] limit 1`)
  return rows.length > 0
}

type Row = {
  article: BulkArticle
  slug: string
  origin: 'editor' | 'automatic'
  html: string
  excerpt: string
  language: string
  publishedAt: string | null
}

/**
 * Writes `articles` in one transaction. Returns the new ids and slugs by old
 * id, and the articles it left to the Local API (`routed`: see the header).
 * Throws when the batch failed (nothing of it is written).
 */
export async function insertArticlesInBulk(
  ctx: ImportContext,
  articles: BulkArticle[],
  settings: BulkSettings,
): Promise<{ created: Map<string, { id: number; slug: string }>; routed: BulkArticle[] }> {
  const { payload, map } = ctx
  const routed: BulkArticle[] = []
  let candidates = articles.filter((a) => (needsLocalApi(a.data, settings) ? (routed.push(a), false) : true))
  if (candidates.some((a) => a.data.status === 'published') && (await webhooksListen(payload))) {
    return { created: new Map(), routed: articles }
  }
  const created = new Map<string, { id: number; slug: string }>()
  if (!candidates.length) return { created, routed }

  const links = linkPolicyOf(payload)
  const htmlOf = new Map<BulkArticle, string>()
  for (const a of candidates) htmlOf.set(a, await renderMarkdown(a.data.markdown, { links }))
  candidates = candidates.filter((a) => (htmlOf.get(a)!.length > HTML_MAX ? (routed.push(a), false) : true))

  const client = await poolOf(payload).connect()
  try {
    await client.query('begin')
    const rows = await chooseSlugs(client, candidates, routed)
    const now = new Date().toISOString()
    const full: Row[] = rows.map(({ article, slug, origin }) => {
      const html = htmlOf.get(article) ?? ''
      const { data } = article
      return {
        article,
        slug,
        origin,
        html,
        excerpt: data.excerpt?.trim() ? data.excerpt.trim() : excerptOf(html),
        language: isChineseArticle(data as unknown as Record<string, unknown>) ? 'zh-CN' : settings.language,
        // stampPublishedAt: the publish time is now when a published article has none.
        publishedAt: data.status === 'published' ? (data.publishedAt ?? now) : null,
      }
    })
    if (!full.length) {
      await client.query('rollback')
      return { created, routed }
    }
    const col = <T>(pick: (r: Row) => T) => full.map(pick)
    const inserted = await client.query<{ id: number; slug: string }>(
      `insert into articles (title, slug, slug_origin, format, markdown, html, excerpt, language, category_id, author_id, status,
                             published_at, view_count, reply_count, meta_title, meta_description, created_at, updated_at, _status)
       select title, slug, origin::enum_articles_slug_origin, 'markdown', markdown, html, excerpt, language, category, author,
              status::enum_articles_status, published, 0, 0, meta_title, meta_description, coalesce(created, $17), coalesce(updated, $17),
              status::enum_articles_status
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[],
                     $10::text[], $11::timestamptz[], $12::text[], $13::text[], $14::timestamptz[], $15::timestamptz[], $16::int[])
           as x(title, slug, origin, markdown, html, excerpt, language, category, author, status, published, meta_title, meta_description, created, updated, n)
        order by n
       returning id, slug`,
      [
        col((r) => r.article.data.title),
        col((r) => r.slug),
        col((r) => r.origin),
        col((r) => r.article.data.markdown),
        col((r) => r.html),
        col((r) => r.excerpt),
        col((r) => r.language),
        col((r) => r.article.data.category ?? null),
        col((r) => r.article.data.author ?? null),
        col((r) => r.article.data.status),
        col((r) => r.publishedAt),
        col((r) => r.article.data.meta?.title ?? null),
        col((r) => r.article.data.meta?.description ?? null),
        col((r) => r.article.input.createdAt ?? null),
        col((r) => r.article.input.updatedAt ?? null),
        full.map((_, i) => i),
        now,
      ],
    )
    const idBySlug = new Map(inserted.rows.map((r) => [r.slug, r.id]))
    const ids = full.map((r) => idBySlug.get(r.slug)!)
    const tags = full.flatMap((r, i) => r.article.data.tags.map((tag, k) => ({ parent: ids[i]!, tag, order: k + 1 })))
    await client.query(
      `insert into articles_rels ("order", parent_id, path, tags_id) select o, p, 'tags', t from unnest($1::int[], $2::int[], $3::int[]) as x(o, p, t)`,
      [tags.map((t) => t.order), tags.map((t) => t.parent), tags.map((t) => t.tag)],
    )
    // The version Payload writes with a create: the row as saved, the latest one, not an autosave.
    const versions = await client.query<{ id: number; parent_id: number }>(
      `insert into _articles_v (parent_id, version_title, version_slug, version_slug_origin, version_format, version_markdown, version_content,
                                version_html, version_excerpt, version_language, version_category_id, version_author_id, version_status,
                                version_published_at, version_view_count, version_reply_count, version_last_reply_at, version_meta_title,
                                version_meta_description, version_meta_image_id, version_meta_keywords, version_edited_by_id,
                                version_updated_at, version_created_at, version__status, created_at, updated_at, latest, autosave)
       select id, title, slug, slug_origin::text::enum__articles_v_version_slug_origin, format::text::enum__articles_v_version_format, markdown, content,
              html, excerpt, language, category_id, author_id, status::text::enum__articles_v_version_status,
              published_at, view_count, reply_count, last_reply_at, meta_title,
              meta_description, meta_image_id, meta_keywords, edited_by_id,
              updated_at, created_at, _status::text::enum__articles_v_version_status, $2, $2, true, false
         from articles where id = any($1::int[]) order by id
       returning id, parent_id`,
      [ids, now],
    )
    const versionOf = new Map(versions.rows.map((v) => [v.parent_id, v.id]))
    await client.query(
      `insert into _articles_v_rels ("order", parent_id, path, tags_id) select o, p, 'version.tags', t from unnest($1::int[], $2::int[], $3::int[]) as x(o, p, t)`,
      [tags.map((t) => t.order), tags.map((t) => versionOf.get(t.parent)!), tags.map((t) => t.tag)],
    )
    await indexArticles(payload, full.map((r, i) => ({ id: ids[i]!, ...searchDocumentOf({ title: r.article.data.title, excerpt: r.excerpt, html: r.html }) })), client)
    await client.query(
      `insert into import_sources (source, site, kind, legacy_id, target_id) select $1, $2, 'article', l, t from unnest($3::text[], $4::int[]) as x(l, t)
         on conflict (source, site, kind, legacy_id) do update set target_id = excluded.target_id`,
      [map.source, map.site, full.map((r) => r.article.input.legacyId), ids],
    )
    // renderCache's purge of each article's page and every list, delivered to the other processes on commit.
    const purged = [...ids.map((id) => `article:${id}`), 'list']
    await client.query('select pg_notify($1, $2)', [INVALIDATION_CHANNEL, purged.join(',')])
    await client.query('commit')
    invalidateLocally(purged)
    for (const [i, r] of full.entries()) {
      created.set(r.article.input.legacyId, { id: ids[i]!, slug: r.slug })
      await map.set(null, 'article', r.article.input.legacyId, ids[i]!)
    }
    return { created, routed }
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

type Queryable = { query: <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<{ rows: R[] }> }

/**
 * The slugs the slugs plugin's hook would give (slugField.ts): an editor's
 * slug as given, unless taken (then the article is routed: the Local API path
 * reports it and makes one from the title); else the title's, with the first
 * free numeric suffix, under the same advisory locks as the hook takes.
 */
async function chooseSlugs(client: Queryable, articles: BulkArticle[], routed: BulkArticle[]): Promise<{ article: BulkArticle; slug: string; origin: 'editor' | 'automatic' }[]> {
  const wanted = articles.map((article) => {
    const explicit = article.data.slug ? slugify(article.data.slug) : undefined
    return { article, explicit, base: explicit ? '' : slugify(article.data.title) }
  })
  const bases = [...new Set(wanted.filter((w) => !w.explicit).map((w) => w.base))].sort()
  if (bases.length) await client.query('select pg_advisory_xact_lock(hashtext(k)) from unnest($1::text[]) as k', [bases.map((b) => `slug:articles:${b}`)])
  const exact = [...new Set(wanted.map((w) => w.explicit ?? w.base))]
  const prefixes = bases.map((b) => `${b.slice(0, 90)}-%`)
  const { rows } = await client.query<{ slug: string }>('select slug from articles where slug = any($1::text[]) or slug like any($2::text[])', [exact, prefixes])
  const taken = new Set(rows.map((r) => r.slug))
  const out: { article: BulkArticle; slug: string; origin: 'editor' | 'automatic' }[] = []
  for (const w of wanted.filter((w) => w.explicit)) {
    if (taken.has(w.explicit!)) routed.push(w.article)
    else {
      taken.add(w.explicit!)
      out.push({ article: w.article, slug: w.explicit!, origin: 'editor' })
    }
  }
  for (const w of wanted.filter((w) => !w.explicit)) {
    let slug = w.base
    for (let n = 2; taken.has(slug); n++) slug = `${w.base.slice(0, 90)}-${n}`
    taken.add(slug)
    out.push({ article: w.article, slug, origin: 'automatic' })
  }
  // In the batch's order, as the Local API would have written them.
  const order = new Map(articles.map((a, i) => [a, i]))
  return out.sort((a, b) => order.get(a.article)! - order.get(b.article)!)
}
