/**
 * Rich text (Lexical JSON) → sanitized HTML with Payload's converters, plus
 * the two nodes Inkwell adds: code blocks, highlighted by the same shiki
 * setup as Markdown fences, and images from Media, resolved to their URLs.
 */
import type { SerializedEditorState, SerializedLexicalNode } from '@payloadcms/richtext-lexical/lexical'
import { convertLexicalToHTML, type HTMLConvertersFunction } from '@payloadcms/richtext-lexical/html'
import type { PayloadRequest } from 'payload'
import type { Highlighter } from 'shiki'

import { escapeHtml } from '../../../src/lib/escapeHtml'
import { highlightSync, prepareHighlighter } from '../../../src/lib/highlight'
import { sanitize, type LinkPolicy } from '../../../src/lib/sanitize'

export type MediaLike = { id: number | string; url?: string | null; alt?: string | null; width?: number | null; height?: number | null }
export type FindMedia = (ids: (number | string)[]) => Promise<MediaLike[]>

type AnyNode = SerializedLexicalNode & {
  children?: AnyNode[]
  fields?: { blockType?: string; language?: string; code?: string; alt?: string }
  relationTo?: string
  value?: unknown
}

/** Our own files are linked by path, so stored articles survive a change of domain. */
function sitePath(url: string | null | undefined, serverURL: string): string | null | undefined {
  if (!url || !serverURL || !url.startsWith(serverURL + '/')) return url
  return url.slice(serverURL.length)
}

/** Media documents for rich-text images, read with the editor's own access. */
export const mediaFinder =
  (req: PayloadRequest): FindMedia =>
  async (ids) => {
    const { docs } = await req.payload.find({ collection: 'media', where: { id: { in: ids } }, limit: ids.length, depth: 0, req })
    return docs.map((doc) => ({ ...doc, url: sitePath(doc.url, req.payload.config.serverURL) }))
  }

function* walk(nodes: AnyNode[] | undefined): Generator<AnyNode> {
  for (const node of nodes ?? []) {
    yield node
    yield* walk(node.children)
  }
}

function isCodeBlock(node: AnyNode): boolean {
  return node.type === 'block' && node.fields?.blockType === 'Code'
}

function mediaId(node: AnyNode): number | string | undefined {
  if (node.type !== 'upload' || node.relationTo !== 'media') return undefined
  const value = node.value
  if (typeof value === 'number' || typeof value === 'string') return value
  if (value && typeof value === 'object' && 'id' in value) return (value as MediaLike).id
  return undefined
}

function imageHtml(media: MediaLike | undefined, alt: string | undefined): string {
  if (!media?.url) return ''
  const size = media.width && media.height ? ` width="${media.width}" height="${media.height}"` : ''
  return `<img src="${escapeHtml(media.url)}" alt="${escapeHtml(alt || media.alt || '')}"${size} loading="lazy" />`
}

// Lexical's text format bits (NodeFormat).
const FORMATS: [bit: number, tag: string][] = [
  [1, 'strong'],
  [2, 'em'],
  [4, 's'],
  [8, 'u'],
  [16, 'code'],
  [32, 'sub'],
  [64, 'sup'],
]

function converters(highlighter: Highlighter, media: Map<string, MediaLike>): HTMLConvertersFunction {
  return ({ defaultConverters }) => ({
    ...defaultConverters,
    // Strikethrough and underline as <s> and <u>: Payload writes them as styled spans, and the sanitizer keeps no style on a span.
    text: ({ node }) => {
      const { text, format } = node as unknown as { text: string; format?: number }
      return FORMATS.reduce((html, [bit, tag]) => ((format ?? 0) & bit ? `<${tag}>${html}</${tag}>` : html), escapeHtml(text))
    },
    // Lists as Markdown renders them: a nested list inside the item above it (Lexical keeps it in an item of its
    // own, which shows an empty bullet once the sanitizer drops Payload's classes), and a numbered list's start.
    list: (args) => {
      const list = args.node as unknown as AnyNode & { listType?: string; start?: number }
      if (list.listType === 'check') return (defaultConverters.list as (a: typeof args) => string)(args)
      const items: string[] = []
      for (const item of list.children ?? []) {
        const kids = item.children ?? []
        const html = args.nodesToHTML({ nodes: kids, parent: { ...item, parent: list } as never }).join('')
        if (items.length && kids.length && kids.every((k) => k.type === 'list')) items[items.length - 1] += html
        else items.push(html)
      }
      const tag = list.listType === 'number' ? 'ol' : 'ul'
      const start = tag === 'ol' && list.start && list.start !== 1 ? ` start="${list.start}"` : ''
      return `<${tag}${start}>${items.map((item) => `<li>${item}</li>`).join('')}</${tag}>`
    },
    upload: ({ node }) => {
      const id = mediaId(node as AnyNode)
      return id === undefined ? '' : `<figure>${imageHtml(media.get(String(id)), (node as AnyNode).fields?.alt)}</figure>`
    },
    // Compact tables with a header row in <thead>, cells without paragraph wrappers:
    // what readers, RSS and the Markdown conversion (GFM tables) all expect.
    table: ({ node, nodesToHTML }) => {
      const rows = ((node as AnyNode).children ?? []) as AnyNode[]
      const isHeader = (row: AnyNode | undefined) => !!row?.children?.length && row.children.every((c) => Number((c as { headerState?: number }).headerState) > 0)
      const head = isHeader(rows[0]) ? rows.slice(0, 1) : []
      const body = rows.slice(head.length)
      const html = (list: AnyNode[]) => nodesToHTML({ nodes: list }).join('')
      return `<table>${head.length ? `<thead>${html(head)}</thead>` : ''}<tbody>${html(body)}</tbody></table>`
    },
    tablerow: ({ node, nodesToHTML }) => `<tr>${nodesToHTML({ nodes: (node as AnyNode).children ?? [] }).join('')}</tr>`,
    tablecell: ({ node, nodesToHTML }) => {
      const cell = node as AnyNode & { headerState?: number; colSpan?: number; rowSpan?: number }
      const tag = Number(cell.headerState) > 0 ? 'th' : 'td'
      const span = `${cell.colSpan && cell.colSpan > 1 ? ` colspan="${cell.colSpan}"` : ''}${cell.rowSpan && cell.rowSpan > 1 ? ` rowspan="${cell.rowSpan}"` : ''}`
      const lines = (cell.children ?? []).map((child) =>
        child.type === 'paragraph' ? nodesToHTML({ nodes: child.children ?? [], parent: { ...child, parent: cell } as never }).join('') : nodesToHTML({ nodes: [child] }).join(''),
      )
      return `<${tag}${span}>${lines.join('<br>')}</${tag}>`
    },
    blocks: {
      Code: ({ node }: { node: unknown }) => {
        const fields = (node as unknown as AnyNode).fields ?? {}
        return highlightSync(highlighter, fields.code ?? '', fields.language)
      },
    },
  })
}

/** The rich-text body as the public page shows it. */
export async function renderLexical(content: unknown, findMedia: FindMedia, links?: LinkPolicy): Promise<string> {
  const state = content as SerializedEditorState | null | undefined
  if (!state?.root) return ''
  const nodes = [...walk(state.root.children as AnyNode[])]
  const highlighter = await prepareHighlighter(nodes.filter(isCodeBlock).map((n) => n.fields?.language))
  const ids = [...new Set(nodes.map(mediaId).filter((id) => id !== undefined))]
  const media = new Map((ids.length ? await findMedia(ids) : []).map((m) => [String(m.id), m]))
  const html = convertLexicalToHTML({
    data: state,
    converters: converters(highlighter, media),
    disableContainer: true,
    disableIndent: true,
    disableTextAlign: true,
  })
  return sanitize(html, { links })
}
