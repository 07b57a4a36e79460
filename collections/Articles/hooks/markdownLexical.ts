/**
 * What Payload's own Markdown ⇄ Lexical converters need around them to carry
 * an Inkwell article across intact:
 *  - images that are the site's own media become upload nodes (Payload only
 *    imports its `![media:12]()` placeholder), and upload nodes export as
 *    `![alt](/api/media/file/…)`;
 *  - `~~~` fences become backtick fences (the code block's transformer knows
 *    only those);
 *  - table cells lose the padding spaces GFM tables put around their text.
 * The conversion itself is Payload's (convertMarkdownToLexical /
 * convertLexicalToMarkdown with the articles' editor features).
 */
import { UploadServerNode } from '@payloadcms/richtext-lexical'
import type { ElementTransformer } from '@payloadcms/richtext-lexical/lexical/markdown'
import MarkdownIt from 'markdown-it'
import { bundledLanguagesInfo } from 'shiki'

export type SiteMedia = { id: number | string; url?: string | null; alt?: string | null; filename?: string | null; mimeType?: string | null }

type JsonNode = {
  type?: string
  text?: string
  children?: JsonNode[]
  fields?: Record<string, unknown>
  relationTo?: string
  value?: unknown
}

const MEDIA_PATH = '/api/media/file/'

/** The media file name a Markdown image URL points at, when it is the site's own (by path or by full URL). */
export function mediaFilename(url: string, serverURL: string): string | undefined {
  const path = serverURL && url.startsWith(serverURL + '/') ? url.slice(serverURL.length) : url
  if (!path.startsWith(MEDIA_PATH)) return undefined
  const name = path.slice(MEDIA_PATH.length).split(/[?#]/)[0]!
  try {
    return decodeURIComponent(name) || undefined
  } catch {
    return undefined
  }
}

// `![alt](url)` or `![alt](url "title")`, alone on its line (an upload is a block).
const IMAGE_LINE = /^!\[([^\]\n]*)\]\((\S+?)(?:\s+"[^"\n]*")?\)$/
/**
 * Puts each site image of a paragraph line (`![alt](url)` or
 * `![alt](url "title")`) between blank lines, so it is a block of its own when
 * Payload's importer reads it: the importer first joins a paragraph's lines
 * into one (its normalizeMarkdown, for soft line breaks), so an image on a
 * line of its own next to another line (two images dropped one under the
 * other) would otherwise share a line and stay literal text. A linked image
 * (`[![alt](url)](href)`) is left as it is: the editor has no linked upload.
 * A scan with indexOf rather than a regular expression: the next "]" and ")"
 * are remembered between candidates, so a hostile line of many "![" costs
 * linear time.
 */
function isolateSiteImages(line: string, isSiteImage: (url: string) => boolean): string {
  let out = ''
  let copied = 0
  let from = 0
  let close = -1
  let paren = -1
  for (;;) {
    const start = line.indexOf('![', from)
    if (start < 0) break
    if (close < start + 2) close = line.indexOf(']', start + 2)
    if (close < 0) break
    if (line[close + 1] !== '(') {
      from = start + 2
      continue
    }
    if (paren < close + 2) paren = line.indexOf(')', close + 2)
    if (paren < 0) break
    const url = line.slice(close + 2, paren).trim().split(' ')[0] ?? ''
    const linked = line[start - 1] === '[' && line.startsWith('](', paren + 1)
    if (url && !linked && isSiteImage(url)) {
      out += `${line.slice(copied, start)}\n\n${line.slice(start, paren + 1)}\n\n`
      copied = paren + 1
    }
    from = paren + 1
  }
  return out + line.slice(copied)
}

/** Image URLs of the document, read with a real Markdown parser (code spans and fences are not images). */
export function imageUrls(markdown: string): string[] {
  const urls: string[] = []
  const visit = (tokens: ReturnType<typeof parser.parse>) => {
    for (const token of tokens) {
      if (token.type === 'image') urls.push(String(token.attrGet('src') ?? ''))
      if (token.children) visit(token.children)
    }
  }
  visit(parser.parse(markdown, {}))
  return urls.filter(Boolean)
}

const parser = new MarkdownIt()

/**
 * Rewrites the source line by line into the forms Payload's importer reads
 * as CommonMark does:
 *  - `~~~` fences become backtick fences;
 *  - setext headings (`Title` over `---`) become `## Title`;
 *  - a nested list item is indented by four spaces a level (the importer
 *    counts levels in fours; CommonMark nests at the parent's text, often two);
 *  - a one-paragraph quote written over several lines becomes one line (the
 *    importer would join its lines without a space);
 *  - the site images of top-level paragraphs are put between blank lines, so
 *    the upload transformer sees each alone on its line.
 * Lines of code are never touched. What still cannot convert is found and
 * refused by conversionCheck.ts.
 */
export function prepareMarkdown(markdown: string, isSiteImage: (url: string) => boolean): string {
  const lines = markdown.split('\n')
  const paragraphLines = new Set<number>()
  const tokens = parser.parse(markdown, {})
  const lists: string[] = []
  let quotes = 0
  tokens.forEach((token, t) => {
    if (token.type === 'blockquote_open') quotes++
    if (token.type === 'blockquote_close') quotes--
    if (token.type === 'bullet_list_open' || token.type === 'ordered_list_open') lists.push(token.type)
    if (token.type === 'bullet_list_close' || token.type === 'ordered_list_close') lists.pop()
    if (!token.map) return
    const [start, end] = token.map
    if (token.type === 'paragraph_open' && token.level === 0) for (let i = start; i < end; i++) paragraphLines.add(i)
    if (token.type === 'list_item_open' && !quotes) lines[start] = '    '.repeat(lists.length - 1) + lines[start]!.trimStart()
    if (token.type === 'heading_open' && (token.markup === '=' || token.markup === '-') && end - start >= 2) {
      lines[start] = `${'#'.repeat(Number(token.tag.slice(1)))} ${tokens[t + 1]!.content.replace(/\n/g, ' ')}`
      for (let i = start + 1; i < end; i++) lines[i] = ''
    }
    if (token.type === 'blockquote_open' && token.level === 0 && end - start > 1) {
      const [p, inline, close, quoteClose] = tokens.slice(t + 1, t + 5)
      const onlyOneParagraph = p?.type === 'paragraph_open' && close?.type === 'paragraph_close' && quoteClose?.type === 'blockquote_close'
      if (onlyOneParagraph && !inline!.children?.some((c) => c.type === 'hardbreak')) {
        lines[start] = `> ${inline!.content.replace(/\n/g, ' ')}`
        for (let i = start + 1; i < end; i++) lines[i] = ''
      }
    }
    if (token.type !== 'fence') return
    if (token.markup.startsWith('~') && !token.content.includes('```')) {
      lines[start] = lines[start]!.replace(token.markup, '```')
      const last = end - 1
      if (last > start && lines[last]!.trim().startsWith(token.markup)) lines[last] = lines[last]!.replace(token.markup, '```')
    }
  })
  return lines.map((line, i) => (paragraphLines.has(i) ? isolateSiteImages(line, isSiteImage) : line)).join('\n')
}

/** Imports `![alt](url)` lines whose URL is one of the site's media files as upload nodes, keeping the alt text. */
export function siteImageTransformer(mediaByFilename: Map<string, SiteMedia>, serverURL: string): ElementTransformer {
  return {
    type: 'element',
    dependencies: [UploadServerNode],
    export: () => null, // Payload's UploadMarkdownTransformer exports uploads whose value is populated.
    regExp: IMAGE_LINE,
    replace: (parentNode, _children, match, isImport) => {
      const media = isImport ? mediaByFilename.get(mediaFilename(match[2] ?? '', serverURL) ?? '') : undefined
      if (!media) return false
      const alt = match[1]?.trim()
      const node = UploadServerNode.importJSON({
        type: 'upload',
        version: 3,
        format: '',
        relationTo: 'media',
        value: media.id,
        fields: alt && alt !== media.alt ? { alt } : {},
      } as never)
      parentNode.replace(node)
      return true
    },
  }
}

/**
 * The language picker's choices: every language the site highlights, under
 * shiki's names and its aliases (`js`, `sh`, …), so a fence keeps the name
 * its writer gave it when it becomes a code block and back.
 */
export const CODE_LANGUAGES: Record<string, string> = Object.fromEntries([
  ['plaintext', 'Plain text'],
  ...bundledLanguagesInfo.flatMap((info) => [
    [info.id, info.name],
    ...(info.aliases ?? []).map((alias) => [alias, `${info.name} (${alias})`]),
  ]),
])

function* walk(nodes: JsonNode[] | undefined, parent?: JsonNode): Generator<[JsonNode, JsonNode | undefined]> {
  for (const node of nodes ?? []) {
    yield [node, parent]
    yield* walk(node.children, node)
  }
}

/** After import: table cells without the padding spaces GFM puts around their text. */
export function tidyImported<T extends { root: JsonNode }>(state: T): T {
  const cells = new Set<JsonNode>()
  for (const [node, parent] of walk(state.root.children)) {
    if (node.type === 'tablecell') cells.add(node)
    if (node.type === 'paragraph' && parent && cells.has(parent)) {
      const texts = (node.children ?? []).filter((c) => c.type === 'text')
      if (texts[0]?.text) texts[0].text = texts[0].text.trimStart()
      const last = texts[texts.length - 1]
      if (last?.text) last.text = last.text.trimEnd()
    }
  }
  return state
}

/**
 * Upload node values replaced by their media documents, so Payload's exporter
 * can write `![alt](url)`; and every line break of the editor marked as a
 * hard one (`\` at the end of the line), which Payload's exporter otherwise
 * writes as a soft break (a space to a Markdown reader).
 */
export function withPopulatedUploads<T extends { root: JsonNode }>(state: T, media: Map<string, SiteMedia>): T {
  const copy = structuredClone(state)
  for (const [node] of walk(copy.root.children)) {
    if (node.type === 'linebreak') Object.assign(node, { $: { ...(node as { $?: object }).$, mdHardLineBreak: '\\' } })
    if (node.type !== 'upload' || node.relationTo !== 'media') continue
    const id = node.value && typeof node.value === 'object' ? (node.value as SiteMedia).id : node.value
    const doc = media.get(String(id))
    if (doc?.url) node.value = doc
  }
  return copy
}

/** Media ids of the upload nodes in a rich-text state. */
export function uploadIds(state: { root: JsonNode }): (number | string)[] {
  const ids = new Set<number | string>()
  for (const [node] of walk(state.root.children)) {
    if (node.type !== 'upload' || node.relationTo !== 'media') continue
    const id = node.value && typeof node.value === 'object' ? (node.value as SiteMedia).id : node.value
    if (typeof id === 'number' || typeof id === 'string') ids.add(id)
  }
  return [...ids]
}
