import type { CollectionBeforeChangeHook } from 'payload'

import { convertLexicalToHTML } from '@payloadcms/richtext-lexical/html'

import { renderMarkdown } from '../../../src/lib/markdown'
import { excerptOf, sanitize } from '../../../src/lib/sanitize'

/**
 * Renders the body once, at save time, into sanitized HTML stored on the
 * article: the reader site, RSS and previews all use this one result.
 */
export const renderBody: CollectionBeforeChangeHook = ({ data, originalDoc }) => {
  const format = data.format ?? originalDoc?.format ?? 'markdown'
  const markdown = data.markdown ?? originalDoc?.markdown
  const content = data.content ?? originalDoc?.content
  const html =
    format === 'html'
      ? sanitize(content ? convertLexicalToHTML({ data: content, disableContainer: true }) : '')
      : renderMarkdown(markdown)
  const excerpt = typeof data.excerpt === 'string' && data.excerpt.trim() ? data.excerpt.trim() : excerptOf(html)
  return { ...data, html, excerpt }
}
