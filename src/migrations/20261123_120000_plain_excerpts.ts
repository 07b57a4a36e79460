import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'
import { parseFragment } from 'parse5'
import type { DefaultTreeAdapterMap } from 'parse5'
import sanitizeHtml from 'sanitize-html'

/**
 * The automatic excerpt used to glue blocks together ("Second headingSome
 * bold…"), include code, and decode `&amp;lt;` twice. Articles saved before
 * the fix keep such an excerpt until they are saved again, so this migration
 * makes them again, from the stored HTML. An excerpt is rewritten only when it
 * is exactly what the old function made from that HTML: an author's own
 * excerpt is never touched. Nothing needs undoing.
 */

/** The old automatic excerpt, frozen here so the migration can recognise what it made. */
export function legacyExcerptOf(html: string, maxLength = 200): string {
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
  if (text.length <= maxLength) return text
  const cut = text.slice(0, maxLength)
  return cut.slice(0, Math.max(cut.lastIndexOf(' '), maxLength - 20)).trimEnd() + '…'
}

/*
 * The new automatic excerpt, frozen on purpose: a copy of excerptOf (src/lib/excerpt.ts,
 * with trimEnd from src/lib/trimEnd.ts) as it was when this migration was written.
 * A migration imports no live code (tests/unit/migrations-frozen.test.ts), so a later
 * change to the live excerpt never changes what this migration did.
 */
type Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['documentFragment']
const EXCERPT_MAX_LENGTH = 160
const SKIPPED = new Set(['pre', 'script', 'style', 'template', 'noscript', 'svg', 'math', 'iframe', 'object', 'textarea'])
const BOUNDARIES = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'div', 'dl', 'dt',
  'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'img', 'li',
  'main', 'nav', 'ol', 'p', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
])
const ENOUGH = EXCERPT_MAX_LENGTH * 2
const TRAILING_PUNCTUATION = /[\s,;:.!?，、；：。！？-]/u

function trimEnd(text: string, isTrimmed: (character: string) => boolean): string {
  let end = text.length
  while (end > 0 && isTrimmed(text[end - 1]!)) end--
  return text.slice(0, end)
}

function proseOf(html: string | null | undefined, enough = Infinity): string {
  if (!html) return ''
  const parts: string[] = []
  let length = 0
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

function truncateAtWord(text: string, max = EXCERPT_MAX_LENGTH): string {
  if (text.length <= max) return text
  const room = max - 1
  let end = 0
  for (const { index, segment } of words.segment(text.slice(0, room + 1))) {
    if (index + segment.length > room) break
    end = index + segment.length
  }
  if (end < room / 2) end = /[\uD800-\uDBFF]/.test(text[room - 1] ?? '') ? room - 1 : room
  return trimEnd(text.slice(0, end), (c) => TRAILING_PUNCTUATION.test(c)) + '…'
}

function openingProse(html: string, max: number): string {
  for (let window = 16_384; ; window *= 4) {
    const prose = proseOf(html.slice(0, window), Math.max(ENOUGH, max * 2))
    if (prose.length > max || window >= html.length) return prose
  }
}

function excerptOf(html: string | null | undefined, max = EXCERPT_MAX_LENGTH): string {
  return html ? truncateAtWord(openingProse(html, max), max) : ''
}

const BATCH = 200

export async function up({ db }: MigrateUpArgs): Promise<void> {
  for (let after = 0; ; ) {
    const { rows } = (await db.execute(sql`
      SELECT "id", "html", "excerpt" FROM "articles"
      WHERE "id" > ${after} AND "html" IS NOT NULL AND "excerpt" IS NOT NULL
      ORDER BY "id" LIMIT ${BATCH}
    `)) as unknown as { rows: { id: number; html: string; excerpt: string }[] }
    if (!rows.length) return
    for (const { id, html, excerpt } of rows) {
      if (excerpt !== legacyExcerptOf(html)) continue
      const current = excerptOf(html)
      if (current !== excerpt) await db.execute(sql`UPDATE "articles" SET "excerpt" = ${current} WHERE "id" = ${id}`)
    }
    after = rows[rows.length - 1]!.id
  }
}

export async function down(_args: MigrateDownArgs): Promise<void> {
  // The old excerpts were defects, not data: there is nothing to restore.
}
