/**
 * The hooks that turn changes into webhook events. Each event's `data` holds
 * public fields only (never hidden, private or draft content): an article's
 * metadata (no body; fetch it from the API), a reply's public body, a user's id
 * and name (never the e-mail), a taxonomy term's name and slug. An article
 * that was never public produces no event except `article.scheduled`, whose
 * data is the same metadata the article will show when its time comes.
 */
import type {
  CollectionAfterChangeHook,
  CollectionAfterDeleteHook,
  CollectionConfig,
  GlobalAfterChangeHook,
  GlobalConfig,
  PayloadRequest,
} from 'payload'

import { relationId } from '../../lib/relationId'
import { firstPublished } from '../../lib/replyVisibility'
import type { WebhookEvent } from './events'
import { recordEvent } from './record'

type Doc = Record<string, unknown>

const relationIds = (value: unknown): number[] => (Array.isArray(value) ? value.map(relationId).filter((id): id is number => id !== undefined) : [])

const isPublished = (doc: Doc | undefined) => doc?.status === 'published'
const isPublicNow = (doc: Doc | undefined) => isPublished(doc) && !!doc?.publishedAt && new Date(doc.publishedAt as string).getTime() <= Date.now()
const isScheduled = (doc: Doc | undefined) => isPublished(doc) && !isPublicNow(doc)

export const articleData = (doc: Doc) => ({
  id: doc.id,
  title: doc.title,
  slug: doc.slug,
  excerpt: doc.excerpt ?? null,
  language: doc.language ?? null,
  category: relationId(doc.category) ?? null,
  tags: relationIds(doc.tags),
  author: relationId(doc.author) ?? null,
  publishedAt: doc.publishedAt ?? null,
  updatedAt: doc.updatedAt,
})

const termData = (doc: Doc) => ({ id: doc.id, name: doc.name, slug: doc.slug ?? null, description: doc.description ?? null })

/** The article event of a change, or none: judged by publicity before and after. */
export function articleEvent(doc: Doc, previous: Doc | undefined, operation: 'create' | 'update'): WebhookEvent | undefined {
  const before = operation === 'create' ? undefined : previous
  if (isPublicNow(doc)) return isPublicNow(before) ? 'article.updated' : 'article.published'
  if (isScheduled(doc)) {
    const sameSchedule = isScheduled(before) && before?.publishedAt === doc.publishedAt
    return sameSchedule ? undefined : 'article.scheduled'
  }
  return isPublicNow(before) ? 'article.unpublished' : undefined
}

const emit = (req: PayloadRequest, type: WebhookEvent, data: Record<string, unknown>) => recordEvent(req, type, data).then(() => undefined)

const articleChanged: CollectionAfterChangeHook = async ({ doc, previousDoc, operation, req }) => {
  const event = articleEvent(doc, previousDoc, operation)
  if (event) await emit(req, event, articleData(doc))
  return doc
}
const articleDeleted: CollectionAfterDeleteHook = async ({ doc, req }) => {
  if (isPublicNow(doc)) await emit(req, 'article.deleted', { id: doc.id, slug: doc.slug })
}

// A reply held by moderation is announced when it is first published (src/lib/replyVisibility.ts).
const replyCreated: CollectionAfterChangeHook = async ({ doc, previousDoc, operation, req }) => {
  if (firstPublished(operation, doc, previousDoc)) {
    await emit(req, 'reply.created', { id: doc.id, article: relationId(doc.article) ?? null, parent: relationId(doc.parent) ?? null, author: relationId(doc.author) ?? null, body: doc.body, createdAt: doc.createdAt })
  }
  return doc
}
const replyDeleted: CollectionAfterDeleteHook = async ({ doc, req }) => {
  if (doc.firstPublishedAt === null) return // never public: never announced
  await emit(req, 'reply.deleted', { id: doc.id, article: relationId(doc.article) ?? null })
}

const userRegistered: CollectionAfterChangeHook = async ({ doc, operation, req }) => {
  if (operation === 'create') await emit(req, 'user.registered', { id: doc.id, name: doc.name ?? null, createdAt: doc.createdAt })
  return doc
}

const termHooks = (kind: 'category' | 'tag') => ({
  afterChange: (async ({ doc, operation, req }) => {
    await emit(req, operation === 'create' ? `${kind}.created` : `${kind}.updated`, termData(doc))
    return doc
  }) as CollectionAfterChangeHook,
  afterDelete: (async ({ doc, req }) => {
    await emit(req, `${kind}.deleted`, { id: doc.id, slug: doc.slug ?? null })
  }) as CollectionAfterDeleteHook,
})

const HOOKS: Record<string, { afterChange?: CollectionAfterChangeHook; afterDelete?: CollectionAfterDeleteHook }> = {
  articles: { afterChange: articleChanged, afterDelete: articleDeleted },
  replies: { afterChange: replyCreated, afterDelete: replyDeleted },
  users: { afterChange: userRegistered },
  categories: termHooks('category'),
  tags: termHooks('tag'),
}

export function withEventHooks(collection: CollectionConfig): CollectionConfig {
  const added = HOOKS[collection.slug]
  if (!added) return collection
  const hooks = collection.hooks ?? {}
  return {
    ...collection,
    hooks: {
      ...hooks,
      afterChange: added.afterChange ? [...(hooks.afterChange ?? []), added.afterChange] : hooks.afterChange,
      afterDelete: added.afterDelete ? [...(hooks.afterDelete ?? []), added.afterDelete] : hooks.afterDelete,
    },
  }
}

const settingsUpdated: GlobalAfterChangeHook = async ({ doc, req }) => {
  await emit(req, 'settings.updated', { updatedAt: doc.updatedAt ?? new Date().toISOString() })
  return doc
}

export function withSettingsHook(global: GlobalConfig): GlobalConfig {
  if (global.slug !== 'site-settings') return global
  const hooks = global.hooks ?? {}
  return { ...global, hooks: { ...hooks, afterChange: [...(hooks.afterChange ?? []), settingsUpdated] } }
}
