import type { CollectionBeforeChangeHook } from 'payload'

import { renderMarkdown } from '../../../src/lib/markdown'
import { excerptOf } from '../../../src/lib/sanitize'
import { convertBody } from './convertBody'
import { mediaFinder, renderLexical } from './renderLexical'

/**
 * Renders the body once, at save time, into sanitized HTML stored on the
 * article: the reader site, RSS and previews all use this one result. When
 * the format changes, the body is first converted into the new format (the
 * old field is kept, so nothing is lost).
 */
export const renderBody: CollectionBeforeChangeHook = async ({ data, originalDoc, req }) => {
  const format = data.format ?? originalDoc?.format ?? 'markdown'
  const switched = !!originalDoc?.format && originalDoc.format !== format
  const body = switched ? await convertBody({ data, originalDoc, to: format, req }) : {}
  const markdown = body.markdown ?? data.markdown ?? originalDoc?.markdown
  const content = body.content ?? data.content ?? originalDoc?.content
  const html = format === 'html' ? await renderLexical(content, mediaFinder(req)) : await renderMarkdown(markdown)
  const excerpt = typeof data.excerpt === 'string' && data.excerpt.trim() ? data.excerpt.trim() : excerptOf(html)
  return { ...data, ...body, html, excerpt }
}
