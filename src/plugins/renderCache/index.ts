/**
 * Tells the reader site's render cache what changed. Every page declares the
 * tags it depends on; these hooks publish the tags a change touches:
 *
 *   article N changed   → article:N, list      (its page, every list and feed)
 *   reply on article N  → article:N, list      (its page; lists show reply counts)
 *   user N changed      → user:N, list         (their page, bylines)
 *   category / tag      → categories | tags, list
 *   friendly link       → links
 *   site settings       → settings             (every page's layout)
 */
import type { CollectionAfterChangeHook, CollectionAfterDeleteHook, CollectionConfig, Config, GlobalAfterChangeHook, Plugin } from 'payload'

import { publishInvalidation } from '../../lib/cacheBus'
import { relationId } from '../../lib/relationId'

type Doc = Record<string, unknown> & { id: number }
type TagsOf = (doc: Doc, previous?: Doc) => string[]

const TAGS: Record<string, TagsOf> = {
  articles: (doc) => [`article:${doc.id}`, 'list'],
  replies: (doc, previous) =>
    [...new Set([relationId(doc.article), relationId(previous?.article)])].filter((id) => id !== undefined).map((id) => `article:${id}`).concat('list'),
  users: (doc) => [`user:${doc.id}`, 'list'],
  categories: () => ['categories', 'list'],
  tags: () => ['tags', 'list'],
  links: () => ['links'],
}

function afterChange(tagsOf: TagsOf): CollectionAfterChangeHook {
  return async ({ doc, previousDoc, req }) => {
    await publishInvalidation(req, tagsOf(doc as Doc, previousDoc as Doc))
    return doc
  }
}

function afterDelete(tagsOf: TagsOf): CollectionAfterDeleteHook {
  return async ({ doc, req }) => {
    await publishInvalidation(req, tagsOf(doc as Doc))
    return doc
  }
}

const settingsChanged: GlobalAfterChangeHook = async ({ doc, req }) => {
  await publishInvalidation(req, ['settings'])
  return doc
}

function decorate(collection: CollectionConfig): CollectionConfig {
  const tagsOf = TAGS[collection.slug]
  if (!tagsOf) return collection
  return {
    ...collection,
    hooks: {
      ...collection.hooks,
      afterChange: [...(collection.hooks?.afterChange ?? []), afterChange(tagsOf)],
      afterDelete: [...(collection.hooks?.afterDelete ?? []), afterDelete(tagsOf)],
    },
  }
}

export const renderCachePlugin = (): Plugin => (config: Config): Config => ({
  ...config,
  collections: (config.collections ?? []).map(decorate),
  globals: (config.globals ?? []).map((global) =>
    global.slug === 'site-settings'
      ? { ...global, hooks: { ...global.hooks, afterChange: [...(global.hooks?.afterChange ?? []), settingsChanged] } }
      : global,
  ),
})
