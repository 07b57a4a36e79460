import type { CollectionBeforeChangeHook } from 'payload'

import { renderMarkdown } from '../../../src/lib/markdown'

/** Replies are Markdown, rendered, highlighted and filtered by the one sanitizer at save time. */
export const renderReply: CollectionBeforeChangeHook = async ({ data }) => {
  if (typeof data.body !== 'string') return data
  return { ...data, html: await renderMarkdown(data.body) }
}
