import type { CollectionBeforeChangeHook } from 'payload'

import { renderMarkdown } from '../../../src/lib/markdown'

/** Replies are limited Markdown, rendered and filtered by the one sanitizer at save time. */
export const renderReply: CollectionBeforeChangeHook = ({ data }) => {
  if (typeof data.body !== 'string') return data
  return { ...data, html: renderMarkdown(data.body) }
}
