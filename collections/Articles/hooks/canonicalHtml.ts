/**
 * Sanitized body HTML reduced to what a reader sees, so the Markdown
 * renderer's output and the rich-text renderer's output of the same body
 * compare equal. What is NOT counted as a difference (and nothing else):
 *  - whitespace outside `<pre>` (HTML collapses it; a soft line break is a space);
 *  - heading ids (anchors), and an image's width, height and loading attributes;
 *  - the site's own origin in an image's address (`http://site/api/media/…` is `/api/media/…`);
 *  - an image's wrapper: `<figure><img></figure>` and `<img>` alone in a
 *    paragraph are the same, and an image inside a paragraph splits it (the
 *    rich-text editor shows every image as a block of its own);
 *  - a lone `<p>` inside a list item or a quote (tight vs loose);
 *  - empty paragraphs;
 *  - a code block's highlighting spans: its language (class) and text are compared;
 *  - the typographic forms the Markdown renderer makes from plain ones
 *    (“” ‘’ – — … © ® ™ ±), compared as the plain ones.
 */
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5'

import { escapeHtml } from '../../../src/lib/escapeHtml'

type P5Node = DefaultTreeAdapterMap['childNode']
type P5Element = DefaultTreeAdapterMap['element']

type Node = { tag: string; attrs: [string, string][]; children: Node[] } | { text: string }

const BLOCK = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'table', 'thead', 'tbody', 'tfoot',
  'tr', 'th', 'td', 'hr', 'figure', 'img', 'div', 'details', 'summary', 'dl', 'dt', 'dd', 'caption', 'figcaption',
])
const DROPPED_ATTRS: Record<string, Set<string>> = {
  h1: new Set(['id']), h2: new Set(['id']), h3: new Set(['id']), h4: new Set(['id']), h5: new Set(['id']), h6: new Set(['id']),
  img: new Set(['width', 'height', 'loading']),
}
const TYPOGRAPHY: [RegExp, string][] = [
  [/[“”„«»]/g, '"'],
  [/[‘’]/g, "'"],
  [/—/g, '---'],
  [/–/g, '--'],
  [/…/g, '...'],
  [/©/g, '(c)'],
  [/®/g, '(r)'],
  [/™/g, '(tm)'],
  [/±/g, '+-'],
]

function textContent(node: P5Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value
  return 'childNodes' in node ? node.childNodes.map(textContent).join('') : ''
}

const isElement = (n: Node): n is Extract<Node, { tag: string }> => 'tag' in n
const isBlank = (n: Node) => !isElement(n) && !n.text.trim()

function convert(node: P5Node, inPre: boolean, origin: string): Node | undefined {
  if (node.nodeName === '#text') {
    let text = (node as DefaultTreeAdapterMap['textNode']).value
    if (!inPre) {
      text = text.replace(/\s+/g, ' ')
      for (const [from, to] of TYPOGRAPHY) text = text.replace(from, to)
    }
    return { text }
  }
  if (!('tagName' in node)) return undefined
  const el = node as P5Element
  const tag = el.tagName
  const dropped = DROPPED_ATTRS[tag]
  const attrs = el.attrs
    .filter((a) => !dropped?.has(a.name))
    .map((a) => [a.name, tag === 'img' && a.name === 'src' && origin && a.value.startsWith(origin + '/') ? a.value.slice(origin.length) : a.value] as [string, string])
    .sort(([a], [b]) => a.localeCompare(b))
  if (tag === 'pre') {
    // A code block is its language and its text: the highlighter's spans follow from them (and shiki may stop
    // colouring a long line when a busy machine hits its time limit, which is no change of the body).
    const code = el.childNodes.find((c): c is P5Element => 'tagName' in c && c.tagName === 'code')
    const codeAttrs = (code?.attrs ?? []).map((a) => [a.name, a.value] as [string, string])
    return { tag, attrs: attrs.filter(([k]) => k === 'class'), children: [{ tag: 'code', attrs: codeAttrs, children: [{ text: textContent(el) }] }] }
  }
  const pre = inPre
  const children = el.childNodes.map((c) => convert(c, pre, origin)).filter((c): c is Node => !!c)
  return { tag, attrs, children: pre ? children : normalizeChildren(tag, children) }
}

/** Merges adjacent text, then trims text at block edges and around `<br>`, so only visible spacing is left. */
function tidyText(children: Node[], blockContainer: boolean): Node[] {
  const merged: Node[] = []
  for (const child of children) {
    const last = merged[merged.length - 1]
    if (last && !isElement(last) && !isElement(child)) merged[merged.length - 1] = { text: (last.text + child.text).replace(/ +/g, ' ') }
    else merged.push(child)
  }
  const out: Node[] = []
  merged.forEach((child, i) => {
    if (isElement(child)) return out.push(child)
    let text = child.text
    const prev = merged[i - 1]
    const next = merged[i + 1]
    const edgeBefore = prev ? isElement(prev) && (BLOCK.has(prev.tag) || prev.tag === 'br') : blockContainer
    const edgeAfter = next ? isElement(next) && (BLOCK.has(next.tag) || next.tag === 'br') : blockContainer
    if (edgeBefore) text = text.trimStart()
    if (edgeAfter) text = text.trimEnd()
    if (text) out.push({ text })
  })
  return out
}

const isEmptyParagraph = (n: Node) =>
  isElement(n) && n.tag === 'p' && n.children.every((c) => isBlank(c) || (isElement(c) && c.tag === 'br'))

function normalizeChildren(tag: string, children: Node[]): Node[] {
  const blockContainer = BLOCK.has(tag) || tag === '#root'
  let list = tidyText(children, blockContainer)
  // <figure><img></figure> → <img>
  list = list.flatMap((c) => (isElement(c) && c.tag === 'figure' && c.children.every((k) => isElement(k) && k.tag === 'img') ? c.children : [c]))
  // An image splits its paragraph: <p>a <img> b</p> → <p>a</p><img><p>b</p>
  list = list.flatMap((c) => {
    if (!isElement(c) || c.tag !== 'p' || !c.children.some((k) => isElement(k) && k.tag === 'img')) return [c]
    const parts: Node[] = []
    let run: Node[] = []
    const flush = () => {
      const kids = tidyText(run, true)
      if (kids.length) parts.push({ tag: 'p', attrs: c.attrs, children: kids })
      run = []
    }
    for (const k of c.children) {
      if (isElement(k) && k.tag === 'img') {
        flush()
        parts.push(k)
      } else if (!(isElement(k) && k.tag === 'br' && (!run.length || run.every(isBlank)))) run.push(k)
    }
    flush()
    return parts
  })
  list = list.filter((c) => !isEmptyParagraph(c))
  // A lone paragraph in a list item or a quote is its text.
  if ((tag === 'li' || tag === 'blockquote') && list.length === 1 && isElement(list[0]!) && list[0].tag === 'p') list = list[0].children
  if ((tag === 'li' || tag === 'blockquote') && list.length > 1 && isElement(list[0]!) && list[0].tag === 'p') {
    // "a" + nested list: the first paragraph of a loose item is its text.
    const [first, ...rest] = list
    if (rest.every((r) => isElement(r) && (r.tag === 'ul' || r.tag === 'ol'))) list = [...(first as Extract<Node, { tag: string }>).children, ...rest]
  }
  return list
}

function serialize(nodes: Node[]): string {
  return nodes
    .map((n) => {
      if (!isElement(n)) return escapeHtml(n.text)
      const attrs = n.attrs.map(([k, v]) => ` ${k}="${escapeHtml(v)}"`).join('')
      return `<${n.tag}${attrs}>${serialize(n.children)}</${n.tag}>`
    })
    .join('')
}

/** The canonical form of a sanitized body: equal strings, same page for the reader. */
export function canonicalHtml(html: string, siteOrigin = ''): string {
  const fragment = parseFragment(html)
  const children = fragment.childNodes.map((c) => convert(c, false, siteOrigin)).filter((c): c is Node => !!c)
  return serialize(normalizeChildren('#root', children))
}

/** The first place two canonical forms differ, with some context, for messages and test failures. */
export function firstDifference(a: string, b: string): string {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  const from = Math.max(0, i - 40)
  return `…${a.slice(from, i + 60)}… ≠ …${b.slice(from, i + 60)}…`
}
