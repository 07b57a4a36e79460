import type { CollectionBeforeChangeHook } from 'payload'

import { renderMarkdown, storableMarkdown } from '../../../src/lib/markdown'
import { linkPolicyOf } from '../../../src/plugins/content/options'

/**
 * Replies are Markdown, rendered, highlighted and filtered by the one sanitizer
 * at save time; images from other sites become links (see ImagePolicy).
 */
export const renderReply: CollectionBeforeChangeHook = async ({ data, req }) => {
  if (typeof data.body !== 'string') return data
  const body = storableMarkdown(data.body)
  return { ...data, body, html: await renderMarkdown(body, { images: 'site', links: linkPolicyOf(req.payload) }) }
}
