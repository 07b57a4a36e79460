/**
 * English slugs for articles whose titles are in other languages: on save, an
 * automatic slug (empty, or still the one made from the title) is made at once
 * by transliteration (src/lib/slug.ts), so the article is readable straight
 * away; when translation credentials are set, `translate-slug` is enqueued and
 * later replaces it with the slug of the English title. The article page
 * answers every former slug with a 301 to the current one.
 *
 * Without credentials nothing is enqueued and the title never leaves the site.
 */
import { createHash } from 'node:crypto'

import type { CollectionAfterChangeHook, CollectionConfig, Config, Plugin } from 'payload'

import { addJobs } from '../../../jobs/commands'
import { enqueue } from '../../../jobs/queue'
import { slugDecision } from './slugField'
import { translateSlug, type TranslateSlugData } from './translateSlug'
import type { TranslateOptions } from './translateToEnglish'

declare module '../../../jobs/definitions' {
  interface JobData {
    'translate-slug': TranslateSlugData
  }
}

export type SlugsOptions = {
  translate: { appId?: string; key?: string; endpoint: string; timeoutMs: number; tries: number }
}

function translationOptions({ translate }: SlugsOptions): TranslateOptions | undefined {
  if (!translate.appId || !translate.key) return undefined
  return { appId: translate.appId, key: translate.key, endpoint: translate.endpoint, timeoutMs: translate.timeoutMs }
}

/** After a save that made the slug from the title: ask for its translation. */
const enqueueTranslation: CollectionAfterChangeHook = async ({ doc, req, operation }) => {
  if (slugDecision(req, operation === 'create' ? undefined : doc.id)?.origin !== 'automatic' || doc.slugOrigin !== 'automatic') return doc
  // One job per article and title: a newer title gets its own job; the same title is not queued twice.
  const titleKey = createHash('sha256').update(String(doc.title)).digest('hex').slice(0, 16)
  await enqueue(req, 'translate-slug', { articleId: doc.id, title: doc.title }, { key: `translate-slug:${doc.id}:${titleKey}` })
  return doc
}

function withTranslationHook(collection: CollectionConfig): CollectionConfig {
  if (collection.slug !== 'articles') return collection
  const hooks = collection.hooks ?? {}
  return { ...collection, hooks: { ...hooks, afterChange: [...(hooks.afterChange ?? []), enqueueTranslation] } }
}

export const slugsPlugin =
  (options: SlugsOptions): Plugin =>
  (config: Config): Config => {
    const translate = translationOptions(options)
    if (!translate) return config
    if (!config.collections?.some((c) => c.slug === 'articles')) {
      throw new Error('slugsPlugin: add it after the plugin that adds the articles collection (contentPlugin)')
    }
    const withHook = { ...config, collections: config.collections.map(withTranslationHook) }
    return addJobs(withHook, { 'translate-slug': { handler: translateSlug(translate) as never, tries: options.translate.tries } })
  }
