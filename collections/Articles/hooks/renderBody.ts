import type { CollectionBeforeChangeHook } from 'payload'

import { renderMarkdown, storableMarkdown } from '../../../src/lib/markdown'
import { excerptOf } from '../../../src/lib/excerpt'
import { linkPolicyOf } from '../../../src/plugins/content/options'
import { convertBody } from './convertBody'
import { mediaFinder, renderLexical } from './renderLexical'

/** Rich text as stored: U+0000, which PostgreSQL's jsonb cannot hold, becomes U+FFFD in every string. */
function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableMarkdown(value) as T
  if (Array.isArray(value)) return value.map(storableJson) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, storableJson(v)])) as T
  }
  return value
}

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
  const markdown = storableMarkdown(body.markdown ?? data.markdown ?? originalDoc?.markdown)
  const content = storableJson(body.content ?? data.content ?? originalDoc?.content)
  const links = linkPolicyOf(req.payload)
  const html = format === 'html' ? await renderLexical(content, mediaFinder(req), links) : await renderMarkdown(markdown, { links })
  const excerpt = typeof data.excerpt === 'string' && data.excerpt.trim() ? data.excerpt.trim() : excerptOf(html)
  const stored = {
    ...(typeof data.markdown === 'string' || body.markdown !== undefined ? { markdown } : {}),
    ...(data.content || body.content ? { content } : {}),
  }
  return { ...data, ...body, ...stored, html, excerpt }
}
