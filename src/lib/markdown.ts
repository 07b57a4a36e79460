/**
 * Markdown → HTML with a CommonMark/GFM renderer (markdown-it: tables,
 * strikethrough, autolinks), code fences highlighted by shiki, and the result
 * always passed through the one sanitizer, so raw HTML in Markdown is
 * filtered too. Used at save time for articles and replies, and by the
 * editor's preview, so the preview is exactly what the public page shows.
 */
import MarkdownIt from 'markdown-it'
import type { Highlighter } from 'shiki'

import { highlightSync, prepareHighlighter } from './highlight'
import { sanitize, type ImagePolicy, type LinkPolicy } from './sanitize'
import { slugify } from './slug'

function createRenderer() {
  const md = new MarkdownIt({ html: true, linkify: true, typographer: true })

  // Headings get stable anchors so sections can be linked to.
  md.core.ruler.push('heading_ids', (state) => {
    const seen = new Map<string, number>()
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open') return
      const text = state.tokens[i + 1]?.content ?? ''
      const base = slugify(text) || 'section'
      const n = seen.get(base) ?? 0
      seen.set(base, n + 1)
      token.attrSet('id', n ? `${base}-${n}` : base)
    })
    return true
  })

  // render() loads the document's languages first and passes the highlighter in env.
  md.renderer.rules.fence = (tokens, idx, _options, env) => {
    const token = tokens[idx]!
    return highlightSync((env as { highlighter: Highlighter }).highlighter, token.content.replace(/\n$/, ''), token.info) + '\n'
  }

  return async function render(source: string): Promise<string> {
    const tokens = md.parse(source, {})
    const highlighter = await prepareHighlighter(tokens.filter((t) => t.type === 'fence').map((t) => t.info))
    return md.renderer.render(tokens, md.options, { highlighter })
  }
}

const articleRenderer = createRenderer()

/**
 * Markdown as stored: U+0000 becomes U+FFFD, as CommonMark and HTML parsers
 * do anyway (PostgreSQL text cannot hold NUL, and nothing else is changed).
 */
export function storableMarkdown<T extends string | null | undefined>(source: T): T {
  return (typeof source === 'string' ? source.replace(/\u0000/g, '\uFFFD') : source) as T
}

/** An article body or a reply: Markdown (raw HTML allowed, then filtered) → sanitized HTML. */
export async function renderMarkdown(source: string | null | undefined, { images, links }: { images?: ImagePolicy; links?: LinkPolicy } = {}): Promise<string> {
  return sanitize(await articleRenderer(source ?? ''), { images, links })
}

