/**
 * The automatic excerpt of an article: plain prose taken from its rendered
 * HTML (Markdown and rich text alike), for cards, meta descriptions and feeds.
 *
 * It is plain text, not HTML: entities are decoded exactly once by the HTML
 * parser, so a body that shows `&lt;script&gt;` gives the text "<script>",
 * which every output escapes for its own context (Astro for pages, the feed
 * writers for XML and JSON). Code blocks are left out, since they read as
 * noise in a summary, and block boundaries become spaces so that a heading
 * and the paragraph after it don't run together.
 */
import { parseFragment } from 'parse5'
import type { DefaultTreeAdapterMap } from 'parse5'

import { trimEnd } from './trimEnd'

type Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['documentFragment']

export const EXCERPT_MAX_LENGTH = 160

/** Elements whose text is not prose: code blocks, and anything that is never shown as text. */
const SKIPPED = new Set(['pre', 'script', 'style', 'template', 'noscript', 'svg', 'math', 'iframe', 'object', 'textarea'])

/**
 * Elements that start or end a block (or a cell): their boundaries are word
 * boundaries. Inline elements (strong, a, code, …) are not, so "**bold**ly"
 * stays one word.
 */
const BOUNDARIES = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'div', 'dl', 'dt',
  'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'img', 'li',
  'main', 'nav', 'ol', 'p', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
])

/** Enough text to cut an excerpt from; a long body is not walked to its end. */
const ENOUGH = EXCERPT_MAX_LENGTH * 2

/** What an excerpt cut short does not end on, before its ellipsis. */
const TRAILING_PUNCTUATION = /[\s,;:.!?，、；：。！？-]/u

/** Prose of an HTML fragment, blocks separated by single spaces, code blocks left out. */
export function proseOf(html: string | null | undefined, enough = Infinity): string {
  if (!html) return ''
  const parts: string[] = []
  let length = 0
  // An explicit stack rather than recursion: deeply nested input costs no call depth.
  const stack: (Node | ' ')[] = [parseFragment(html)]
  while (stack.length && length < enough) {
    const node = stack.pop()!
    if (node === ' ') {
      parts.push(' ')
      continue
    }
    if (node.nodeName === '#text') {
      const value = (node as DefaultTreeAdapterMap['textNode']).value
      parts.push(value)
      length += value.length
      continue
    }
    if (!('childNodes' in node) || SKIPPED.has(node.nodeName)) continue
    const boundary = BOUNDARIES.has(node.nodeName)
    if (boundary) stack.push(' ')
    for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!)
    if (boundary) parts.push(' ')
  }
  return parts.join('').replace(/\s+/g, ' ').trim()
}

const words = new Intl.Segmenter(undefined, { granularity: 'word' })

/**
 * `text` shortened to at most `max` characters, ellipsis included, cut after
 * the last whole word that fits (Intl.Segmenter knows words in scripts
 * without spaces, such as Chinese), without trailing punctuation or spaces.
 */
export function truncateAtWord(text: string, max = EXCERPT_MAX_LENGTH): string {
  if (text.length <= max) return text
  const room = max - 1 // for the ellipsis
  let end = 0
  for (const { index, segment } of words.segment(text.slice(0, room + 1))) {
    if (index + segment.length > room) break
    end = index + segment.length
  }
  // A word longer than half the excerpt (a URL, say): cut inside it, never inside a surrogate pair.
  if (end < room / 2) end = /[\uD800-\uDBFF]/.test(text[room - 1] ?? '') ? room - 1 : room
  return trimEnd(text.slice(0, end), (c) => TRAILING_PUNCTUATION.test(c)) + '…'
}

/**
 * The prose at the start of a body, parsing only as much of it as needed: a
 * window of the HTML that grows fourfold until it holds more prose than the
 * excerpt can show (a partial tag or word at its end then lies past the cut),
 * so a long body costs about as much as its opening, and one that is mostly
 * code stays linear.
 */
function openingProse(html: string, max: number): string {
  for (let window = 16_384; ; window *= 4) {
    const prose = proseOf(html.slice(0, window), Math.max(ENOUGH, max * 2))
    if (prose.length > max || window >= html.length) return prose
  }
}

/** The automatic excerpt of a rendered article body. */
export function excerptOf(html: string | null | undefined, max = EXCERPT_MAX_LENGTH): string {
  return html ? truncateAtWord(openingProse(html, max), max) : ''
}
