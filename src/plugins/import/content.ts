/**
 * WordPress (classic HTML, Gutenberg block markup, the common shortcodes) and
 * Ghost HTML → Inkwell Markdown. Markdown because its renderer keeps what
 * matters best: fenced code is highlighted by shiki, GFM tables stay tables,
 * images stay images, and raw HTML it does not know is kept and passed
 * through the one sanitizer at save time (src/lib/markdown.ts), so whatever
 * this cannot convert is kept as sanitized HTML — and listed in the report.
 *
 * Every step is linear in the input: the regular expressions below have no
 * nested quantifiers over the same characters.
 */
import TurndownService from 'turndown'
import { gfm } from 'turndown-plugin-gfm'

import { escapeHtml } from '../../lib/escapeHtml'

/** Elements Markdown cannot say: kept as HTML (the sanitizer then keeps what it allows). */
const KEPT = ['iframe', 'video', 'audio', 'object', 'embed', 'details', 'summary', 'sup', 'sub'] as const
/** Elements dropped whole, content included. */
const DROPPED = ['script', 'style', 'noscript', 'form', 'button', 'select', 'textarea', 'input'] as const

export type Converted = { markdown: string; kept: string[]; dropped: string[]; shortcodes: string[] }
export type ConvertOptions = { attachmentUrl?: (id: string) => string | undefined }

/** What the rules saw in the document being converted (one conversion at a time: turndown is synchronous). */
const seen = { kept: new Set<string>(), dropped: new Set<string>() }

function service(kept: Set<string>, dropped: Set<string>): TurndownService {
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*', hr: '---' })
  td.use(gfm)
  // <pre> without <code> (classic editor, wp-block-preformatted) is a code block too.
  td.addRule('bare-pre', {
    filter: (node) => node.nodeName === 'PRE' && !(node.firstChild && node.firstChild.nodeName === 'CODE'),
    replacement: (_content, node) => {
      const text = (node as HTMLElement).textContent ?? ''
      const fence = text.includes('```') ? '~~~~' : '```'
      return `\n\n${fence}\n${text.replace(/\n$/, '')}\n${fence}\n\n`
    },
  })
  // Figures of images (Gutenberg image blocks, [caption]) become the image and its caption as a line of emphasis.
  td.addRule('image-figure', {
    filter: (node) => node.nodeName === 'FIGURE' && !!(node as HTMLElement).querySelector('img') && !(node as HTMLElement).querySelector('iframe,video,audio,table'),
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  })
  td.addRule('figcaption', { filter: 'figcaption' as never, replacement: (content) => (content.trim() ? `\n\n*${content.trim()}*\n\n` : '') })
  td.addRule('dropped', {
    filter: (node) => DROPPED.includes(node.nodeName.toLowerCase() as (typeof DROPPED)[number]),
    replacement: (_content, node) => {
      dropped.add(node.nodeName.toLowerCase())
      return ''
    },
  })
  td.addRule('kept', {
    filter: (node) => KEPT.includes(node.nodeName.toLowerCase() as (typeof KEPT)[number]),
    replacement: (_content, node) => {
      kept.add(node.nodeName.toLowerCase())
      return `\n\n${(node as HTMLElement).outerHTML}\n\n`
    },
  })
  return td
}

const attr = (attrs: string, name: string): string | undefined => {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s\\]]+))`, 'i').exec(attrs)
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined
}

/** The common shortcodes as HTML; any other `[name …]` is left as text and named in the report. */
/**
 * Replaces each `open…]inner close` pair, in linear time: the text is cut at
 * each closing mark and paired with the last opening mark before it in that
 * piece (a lazy regular expression would rescan the rest of the text for
 * every unclosed opening mark: quadratic on hostile input).
 */
function replacePairs(text: string, open: string, close: string, replace: (attrs: string, inner: string) => string): string {
  const lower = text.toLowerCase()
  let out = ''
  let from = 0
  for (;;) {
    const end = lower.indexOf(close, from)
    if (end < 0) break
    const at = lower.slice(from, end).lastIndexOf(open)
    const start = at < 0 ? -1 : from + at
    const attrsEnd = start < 0 ? -1 : text.indexOf(open.startsWith('<') ? '>' : ']', start + open.length)
    const next = text[start + open.length]
    const whole = start >= 0 && attrsEnd >= 0 && attrsEnd < end && (next === ']' || next === '>' || /\s/.test(next ?? ''))
    out += whole ? text.slice(from, start) + replace(text.slice(start + open.length, attrsEnd), text.slice(attrsEnd + 1, end)) : text.slice(from, end + close.length)
    from = end + close.length
  }
  return out + text.slice(from)
}

function codeBlock(attrs: string, code: string): string {
  const lang = (attr(attrs, 'lang') ?? attr(attrs, 'language') ?? '').replace(/[^a-z0-9+#-]/gi, '')
  return `<pre><code${lang ? ` class="language-${lang}"` : ''}>${escapeHtml(decodeEntities(code.replace(/^\n/, '')))}</code></pre>`
}

function expandCodeShortcodes(html: string): string {
  return replacePairs(replacePairs(html, '[code', '[/code]', codeBlock), '[sourcecode', '[/sourcecode]', codeBlock)
}

function expandShortcodes(html: string, shortcodes: Set<string>, options: ConvertOptions): string {
  return (
    replacePairs(
      replacePairs(html, '[caption', '[/caption]', (_attrs, inner) => {
        const image = /<img\b[^<>]*>/i.exec(inner)?.[0] ?? ''
        const caption = inner.replace(image, '').replace(/<\/?a\b[^<>]*>/gi, '').trim()
        return `<figure>${image}<figcaption>${caption}</figcaption></figure>`
      }),
      '[embed',
      '[/embed]',
      (_attrs, url) => embedLink(url.trim()),
    )
      .replace(/\[gallery([^[\]]*)\]/gi, (_m, attrs: string) => {
        const ids = (attr(attrs, 'ids') ?? '').split(',').map((s) => s.trim()).filter(Boolean)
        const urls = ids.map((id) => options.attachmentUrl?.(id)).filter((u): u is string => !!u)
        if (!urls.length) {
          shortcodes.add('gallery (no images found)')
          return ''
        }
        return urls.map((u) => `<p><img src="${escapeHtml(u)}" alt=""></p>`).join('')
      })
      // A shortcode of a plugin (contact forms, sliders…): left as text, named in the report.
      .replace(/\[([a-z][a-z0-9_-]+)(?![a-z0-9_-])(?=[\s\]])[^[\]\n]*\]/gi, (m, name: string) => {
        shortcodes.add(name.toLowerCase())
        return m
      })
  )
}

function embedLink(url: string): string {
  if (!/^https?:\/\//i.test(url)) return escapeHtml(url)
  return `<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`
}

function decodeEntities(text: string): string {
  return text.replace(/&(lt|gt|quot|#039|#39|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#039': "'", '#39': "'", amp: '&' })[e]!)
}

/** Gutenberg's block comments go. */
function stripBlocks(html: string): string {
  // An embed block keeps its URL as the text of its figure: it becomes a link (markdown-it's linkify).
  return html.replace(/<!--\s*\/?wp:[^<>]*-->/g, '')
}

/** WordPress's wpautop, simplified: blank lines separate paragraphs in classic posts (no <p> in the source). */
function autop(html: string): string {
  if (/<p[\s>]/i.test(html)) return html
  // Blank lines inside <pre> are code, not paragraph breaks: set aside while splitting.
  const pres: string[] = []
  const stashed = replacePairs(html, '<pre', '</pre>', (attrs, inner) => `\u0000${pres.push(`<pre${attrs}>${inner}</pre>`) - 1}\u0000`)
  const blocks = stashed.split(/\n[ \t]*\n/)
  const joined = blocks
    .map((b) => b.trim())
    .filter(Boolean)
    .map((b) => (/^(<(h[1-6]|ul|ol|pre|blockquote|table|figure|div|hr|p|iframe|video|audio)\b|\u0000\d+\u0000$)/i.test(b) ? b : `<p>${b.replace(/\n/g, '<br>\n')}</p>`))
    .join('\n\n')
  return joined.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => pres[Number(i)]!)
}

let shared: TurndownService | undefined

/** The converter's DOM slows down quadratically with nesting depth; real posts nest a dozen levels. */
const MAX_DEPTH = 400
const VOID = new Set(['br', 'img', 'hr', 'input', 'meta', 'link', 'source', 'wbr', 'area', 'col', 'embed', 'param', 'track', 'p', 'li', 'td', 'th', 'tr', 'option'])

/** How deep elements nest, estimated in one pass over the tags (elements HTML closes implicitly are not counted). */
function nestingDepth(html: string): number {
  let depth = 0
  let max = 0
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:[^<>a-zA-Z0-9][^<>]*)?)>/g)) {
    const name = m[2]!.toLowerCase()
    if (VOID.has(name) || m[3]!.endsWith('/')) continue
    depth = m[1] ? Math.max(0, depth - 1) : depth + 1
    if (depth > max) max = depth
  }
  return max
}

export function htmlToMarkdown(html: string, options: ConvertOptions = {}): Converted {
  // One service for every conversion (building one per call cost more than converting a comment).
  shared ??= service(seen.kept, seen.dropped)
  const { kept, dropped } = seen
  kept.clear()
  dropped.clear()
  const shortcodes = new Set<string>()
  // NUL never reaches here as content (it is not text in HTML): it marks the stashed <pre> blocks.
  const prepared = expandShortcodes(autop(expandCodeShortcodes(stripBlocks((html ?? '').replace(/\u0000/g, '')))), shortcodes, options)
  if (nestingDepth(prepared) > MAX_DEPTH) {
    // Hostile or broken markup: its text only (every renderer slows down with such nesting, the sanitizer too).
    const text = escapeHtml(decodeEntities(prepared.replace(/<[^<>]{0,2000}>/g, ' ').replace(/\s+/g, ' ').trim()))
    return { markdown: text, kept: [], dropped: ['every element (nested too deeply: the text was kept)'], shortcodes: [...shortcodes] }
  }
  try {
    const markdown = prepared.trim() ? shared.turndown(prepared).trim() : ''
    return { markdown, kept: [...kept], dropped: [...dropped], shortcodes: [...shortcodes] }
  } catch {
    // Nesting deeper than the converter's stack (hostile or broken markup): the HTML is kept whole, and the
    // sanitizer filters it when the article is saved.
    return { markdown: prepared, kept: ['the whole body (it could not be converted)'], dropped: [], shortcodes: [...shortcodes] }
  }
}
