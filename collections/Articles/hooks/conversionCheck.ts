/**
 * A format switch is allowed only when the reader would see the same body:
 * the source's sanitized HTML, the converted body's and the body converted
 * back all have the same canonical form (canonicalHtml.ts). Otherwise the
 * switch is refused, naming each block that would change and where, e.g.
 * "Switching to rich text would change: heading 1 at line 1 (“Title”);
 * image from another site at line 7 (“![logo](https://…”)."
 */
import MarkdownIt from 'markdown-it'
import type { PayloadRequest } from 'payload'

import { renderMarkdown } from '../../../src/lib/markdown'
import { linkPolicyOf } from '../../../src/plugins/content/options'
import { canonicalHtml } from './canonicalHtml'
import { lexicalToMarkdown, markdownToLexical } from './converters'
import { mediaFilename } from './markdownLexical'
import { mediaFinder, renderLexical } from './renderLexical'
import { translator, type Translate } from '../../../src/lib/i18n'

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number]
type LexicalNode = { type?: string; tag?: string; listType?: string; text?: string; children?: LexicalNode[]; fields?: { blockType?: string; language?: string; code?: string } }
type EditorState = { root: LexicalNode & Record<string, unknown> }

const blocks = new MarkdownIt({ html: true })

function snippet(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 40 ? `${line.slice(0, 40)}…` : line
}

function renderers(req: PayloadRequest) {
  const links = linkPolicyOf(req.payload)
  const origin = req.payload.config.serverURL
  return {
    markdown: async (markdown: string) => canonicalHtml(await renderMarkdown(markdown, { links }), origin),
    richText: async (content: unknown) => canonicalHtml(await renderLexical(content, mediaFinder(req), links), origin),
  }
}

/** What a top-level Markdown block is, in words an author knows, with what makes it unconvertible when that is plain. */
function markdownBlockKind(tokens: Token[], serverURL: string): string {
  const [open] = tokens
  const inline = tokens.flatMap((t) => t.children ?? [])
  const images = inline.filter((t) => t.type === 'image')
  const external = images.some((t) => !mediaFilename(String(t.attrGet('src') ?? ''), serverURL))
  switch (open!.type) {
    case 'heading_open':
      return `heading ${open!.tag.slice(1)}`
    case 'paragraph_open': {
      let inLink = 0
      for (const t of inline) {
        inLink += t.type === 'link_open' ? 1 : t.type === 'link_close' ? -1 : 0
        if (inLink > 0 && t.type === 'image') return 'linked image'
      }
      if (external) return 'image from another site'
      if (images.some((t) => !t.content)) return 'image without alt text'
      return images.length ? 'image' : 'paragraph'
    }
    case 'bullet_list_open':
    case 'ordered_list_open': {
      const kind = open!.type === 'bullet_list_open' ? 'list' : 'numbered list'
      if (inline.some((t) => t.type === 'text' && /^\[[ xX]\] /.test(t.content))) return 'task list'
      const nested = tokens.filter((t) => t.level > 0 && /_list_open$/.test(t.type))
      if (nested.some((t) => t.type !== open!.type)) return `${kind} with a nested list of the other kind`
      if (nested.length) return `nested ${kind}`
      return images.length ? `${kind} with an image` : kind
    }
    case 'blockquote_open':
      return tokens.some((t) => t.level > 0 && t.type === 'blockquote_open') ? 'nested quote' : 'quote'
    case 'fence':
      return `code block (${open!.info.trim() || 'no language'})`
    case 'code_block':
      return 'indented code block'
    case 'table_open':
      return images.length ? 'table with an image' : 'table'
    case 'hr':
      return 'horizontal rule'
    case 'html_block':
      return 'HTML block'
    default:
      return open!.type.replace(/_open$/, '')
  }
}

/** Top-level blocks of a Markdown source: their tokens and first line. */
function markdownBlocks(markdown: string): { tokens: Token[]; start: number; end: number }[] {
  const out: { tokens: Token[]; start: number; end: number }[] = []
  let current: Token[] = []
  for (const token of blocks.parse(markdown, {})) {
    current.push(token)
    if (token.level === 0 && token.nesting <= 0) {
      const map = current[0]!.map
      if (map) out.push({ tokens: current, start: map[0], end: map[1] })
      current = []
    }
  }
  return out
}

/**
 * Markdown → rich text, with the blocks that would change for the reader
 * (empty when none would): the rich text must render as the Markdown did, and
 * converting it back must too.
 */
export async function markdownSwitch(markdown: string, req: PayloadRequest): Promise<{ content: EditorState; changes: string[] }> {
  const render = renderers(req)
  const content = (await markdownToLexical(markdown, req)) as unknown as EditorState
  const same = async (source: string, converted: EditorState) => {
    const expected = await render.markdown(source)
    return expected === (await render.richText(converted)) && expected === (await render.markdown(await lexicalToMarkdown(converted, req)))
  }
  if (await same(markdown, content)) return { content, changes: [] }
  const lines = markdown.split('\n')
  const changes: string[] = []
  const env: { references?: Record<string, { href: string; title: string }> } = {}
  blocks.parse(markdown, env)
  const labels = Object.keys(env.references ?? {})
  if (labels.length) changes.push(`reference-style links (${labels.map((l) => `[${l.toLowerCase()}]`).join(', ')}: write them inline)`)
  for (const block of markdownBlocks(markdown)) {
    const source = lines.slice(block.start, block.end).join('\n')
    if (await same(source, (await markdownToLexical(source, req)) as unknown as EditorState)) continue
    changes.push(`${markdownBlockKind(block.tokens, req.payload.config.serverURL)} at line ${block.start + 1} (“${snippet(lines[block.start] ?? '')}”)`)
  }
  return { content, changes: changes.length ? changes : ['the body’s layout (its blocks convert one by one, but not together)'] }
}

function textOf(node: LexicalNode): string {
  if (node.type === 'block') return node.fields?.code ?? ''
  return node.text ?? (node.children ?? []).map(textOf).join(' ')
}

function richTextBlockKind(node: LexicalNode): string {
  switch (node.type) {
    case 'heading':
      return `heading ${node.tag?.slice(1)}`
    case 'list':
      return node.listType === 'check' ? 'task list' : node.listType === 'number' ? 'numbered list' : 'list'
    case 'block':
      return node.fields?.blockType === 'Code' ? `code block (${node.fields.language || 'no language'})` : 'block'
    case 'upload':
      return 'image'
    case 'horizontalrule':
      return 'horizontal rule'
    default:
      return node.type ?? 'block'
  }
}

/**
 * Rich text → Markdown, with the blocks that would change for the reader
 * (empty when none would): the Markdown must render as the rich text did,
 * and converting it back must too.
 */
export async function richTextSwitch(content: unknown, req: PayloadRequest): Promise<{ markdown: string; changes: string[] }> {
  const render = renderers(req)
  const state = content as EditorState | null | undefined
  const markdown = await lexicalToMarkdown(state, req)
  if (!state?.root) return { markdown, changes: [] }
  const same = async (source: EditorState, converted: string) => {
    const expected = await render.richText(source)
    return expected === (await render.markdown(converted)) && expected === (await render.richText(await markdownToLexical(converted, req)))
  }
  if (await same(state, markdown)) return { markdown, changes: [] }
  const changes: string[] = []
  const children = state.root.children ?? []
  for (const [i, node] of children.entries()) {
    const one: EditorState = { root: { ...state.root, children: [node] } }
    if (await same(one, await lexicalToMarkdown(one, req))) continue
    const text = snippet(textOf(node))
    changes.push(`${richTextBlockKind(node)} (block ${i + 1}${text ? ` “${text}”` : ''})`)
  }
  return { markdown, changes: changes.length ? changes : ['the body’s layout (its blocks convert one by one, but not together)'] }
}

/** The refusal's wording, shown as the format field's error on every path. */
export function refusal(to: 'markdown' | 'html', changes: string[], t: Translate = translator('en')): string {
  return t('error.body.refusal', { format: t(`error.body.format.${to}`), changes: changes.join('; ') })
}
