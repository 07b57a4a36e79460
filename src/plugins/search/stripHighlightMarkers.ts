import type { CollectionBeforeValidateHook } from 'payload'

import { HIGHLIGHT_MARKERS } from './searchArticles'

function strip(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(HIGHLIGHT_MARKERS, '')
  if (Array.isArray(value)) return value.map(strip)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v)]))
  return value
}

/**
 * The search highlighter marks matches with two private-use characters
 * (U+E000, U+E001) and turns them into <mark> after escaping: text that held
 * them could open or close highlights of its own. They never come from
 * typing, so they are removed from every string an article is saved with
 * (title, excerpt, Markdown, rich text), on every path.
 */
export const stripHighlightMarkers: CollectionBeforeValidateHook = ({ data }) => (data ? (strip(data) as typeof data) : data)
