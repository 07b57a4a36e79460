/**
 * Slugs, as one feature. REQUIRED: every public URL is made of slugs (articles,
 * categories, tags), so this plugin is not optional like the others; the
 * reader site and the sitemap break without it.
 *
 * It owns:
 * - the `slug` field it adds to each configured collection, right after the
 *   field it is made from (slugField.ts): derived from that field until someone
 *   types one, unique (a numeric suffix, saves taking turns on an advisory lock);
 * - for collections with `trackOrigin` (articles): the server-written
 *   `slugOrigin` and `formerSlugs` fields and the `stampSlugOrigin` hook, so an
 *   automatic slug follows the title and every former slug answers with a 301;
 * - English slugs for titles in other languages: on save, an automatic slug is
 *   made at once by transliteration (src/lib/slug.ts, shared with Markdown's
 *   heading ids), so the article is readable straight away; when translation
 *   credentials are set, `translate-slug` is enqueued and later replaces it with
 *   the slug of the English title (translateSlug.ts, translateToEnglish.ts).
 *   Without credentials nothing is enqueued and the title never leaves the site.
 * The hooks share what they decided through slugDecision.ts, the one definition
 * of the request-context entries they use.
 */
import { createHash } from 'node:crypto'

import type { CollectionAfterChangeHook, CollectionConfig, Config, Plugin } from 'payload'

import { addJobs } from '../../../jobs/commands'
import { enqueue } from '../../../jobs/queue'
import { decorateCollection, insertFieldsAfter } from '../decorateCollection'
import { slugDecision } from './slugDecision'
import { slugField, slugOriginFields, stampSlugOrigin } from './slugField'
import { translateSlug, type TranslateSlugData } from './translateSlug'
import type { TranslateOptions } from './translateToEnglish'

declare module '../../../jobs/definitions' {
  interface JobData {
    'translate-slug': TranslateSlugData
  }
}

/** A collection that gets a slug: the field it is made from; `trackOrigin` as in slugField. */
export type SlugCollection = { from: string; trackOrigin?: boolean }

export type SlugsOptions = {
  /** By collection slug. Translation applies to `articles` (the job reads and writes articles). */
  collections: Record<string, SlugCollection>
  translate: { appId?: string; key?: string; endpoint: string; timeoutMs: number; tries: number }
}

function translationOptions({ translate }: SlugsOptions): TranslateOptions | undefined {
  if (!translate.appId || !translate.key) return undefined
  return { appId: translate.appId, key: translate.key, endpoint: translate.endpoint, timeoutMs: translate.timeoutMs }
}

/**
 * After a save that made the slug from the title, or that published a new title under a slug still made
 * from the title: ask for its translation. (A title changed in a draft gets its automatic slug in that draft
 * save, which asks for nothing: the drafts plugin skips this hook for draft saves, and `previousDoc` is the
 * published article. Publishing it from the admin, whose form sends the slug it shows, decides nothing new.)
 */
const enqueueTranslation: CollectionAfterChangeHook = async ({ doc, previousDoc, req, operation }) => {
  if (doc.slugOrigin !== 'automatic') return doc
  const madeNow = slugDecision(req, operation === 'create' ? undefined : doc.id)?.origin === 'automatic'
  const newTitle = operation === 'update' && previousDoc?.title !== doc.title
  if (!madeNow && !newTitle) return doc
  // One job per article and title: a newer title gets its own job; the same title is not queued twice.
  const titleKey = createHash('sha256').update(String(doc.title)).digest('hex').slice(0, 16)
  await enqueue(req, 'translate-slug', { articleId: doc.id, title: doc.title }, { key: `translate-slug:${doc.id}:${titleKey}` })
  return doc
}

/** The slug field (and, when tracked, its origin fields and the hook that stamps them). */
function withSlug({ from, trackOrigin = false }: SlugCollection) {
  return (collection: CollectionConfig): CollectionConfig => {
    const slug = slugField(from, {}, { trackOrigin })
    if (!trackOrigin) return { ...collection, fields: insertFieldsAfter(collection.fields, from, [slug]) }
    const hooks = collection.hooks ?? {}
    return {
      ...collection,
      fields: insertFieldsAfter(collection.fields, from, [slug, ...slugOriginFields()]),
      // Appended: after the collection's own beforeChange hooks, where Articles listed it (field hooks run before any).
      hooks: { ...hooks, beforeChange: [...(hooks.beforeChange ?? []), stampSlugOrigin] },
    }
  }
}

function withTranslationHook(collection: CollectionConfig): CollectionConfig {
  const hooks = collection.hooks ?? {}
  return { ...collection, hooks: { ...hooks, afterChange: [...(hooks.afterChange ?? []), enqueueTranslation] } }
}

export const slugsPlugin =
  (options: SlugsOptions): Plugin =>
  (config: Config): Config => {
    const withSlugs = Object.entries(options.collections).reduce(
      (acc, [slug, collection]) => decorateCollection(acc, slug, 'slugsPlugin', withSlug(collection)),
      config,
    )
    const translate = translationOptions(options)
    if (!translate) return withSlugs
    const withHook = decorateCollection(withSlugs, 'articles', 'slugsPlugin', withTranslationHook)
    return addJobs(withHook, { 'translate-slug': { handler: translateSlug(translate) as never, tries: options.translate.tries } })
  }
