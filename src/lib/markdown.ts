/**
 * Markdown → HTML with a CommonMark/GFM renderer; the result always passes
 * through the one sanitizer, so raw HTML in Markdown is filtered too.
 */
import MarkdownIt from 'markdown-it'

import { sanitize } from './sanitize'
import { slugify } from './slug'

const md = new MarkdownIt({ html: true, linkify: true, typographer: true })

// Headings get stable anchors so sections can be linked to.
md.core.ruler.push('heading_ids', (state) => {
  const seen = new Map<string, number>()
  state.tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return
    const text = state.tokens[i + 1]?.content ?? ''
    const base = slugify(text)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    token.attrSet('id', n ? `${base}-${n}` : base)
  })
  return true
})

export function renderMarkdown(source: string | null | undefined): string {
  return sanitize(md.render(source ?? ''))
}
