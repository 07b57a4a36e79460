import type { CollectionBeforeChangeHook } from 'payload'

/** The publish time is set the first time an article is published, unless given. */
export const stampPublishedAt: CollectionBeforeChangeHook = ({ data, originalDoc }) => {
  const status = data.status ?? originalDoc?.status
  if (status === 'published' && !data.publishedAt && !originalDoc?.publishedAt) {
    return { ...data, publishedAt: new Date().toISOString() }
  }
  return data
}
