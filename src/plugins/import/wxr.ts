/**
 * A WordPress export (WXR 1.1 / 1.2) read as a stream: saxes parses the file
 * chunk by chunk and each record of the channel (an author, a category, a tag,
 * an item with its post meta and comments) is handed over as soon as its
 * closing tag is read, so memory stays flat whatever the file's size.
 *
 * Safe by construction: a DOCTYPE (where entity declarations, and so XML
 * bombs, live) is refused, saxes expands no entity but the five of XML, one
 * record's text is capped, and the file's size is checked before reading.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'

import { SaxesParser } from 'saxes'

import { ImportFileError } from './report'

/** One element of a record: its attributes, text (CDATA included) and child elements. */
export type XmlNode = { name: string; attrs: Record<string, string>; text: string; children: XmlNode[] }

export type WxrRecord =
  | { kind: 'channel'; version: string; baseSiteUrl: string; baseBlogUrl: string; link: string }
  | { kind: 'author' | 'category' | 'tag' | 'term' | 'item'; node: XmlNode }

const SUPPORTED_VERSIONS = ['1.1', '1.2']
const RECORDS: Record<string, 'author' | 'category' | 'tag' | 'term' | 'item'> = {
  'wp:author': 'author',
  'wp:category': 'category',
  'wp:tag': 'tag',
  'wp:term': 'term',
  item: 'item',
}
const CHANNEL_FIELDS = new Set(['wp:wxr_version', 'wp:base_site_url', 'wp:base_blog_url', 'link'])

export type WxrLimits = { maxFileBytes: number; maxRecordChars: number }
export const DEFAULT_WXR_LIMITS: WxrLimits = { maxFileBytes: 1024 ** 3, maxRecordChars: 20_000_000 }

/** The first text child of `name` (`wp:post_id`), '' when absent. */
export function field(node: XmlNode, name: string): string {
  return node.children.find((c) => c.name === name)?.text ?? ''
}

export function childrenNamed(node: XmlNode, name: string): XmlNode[] {
  return node.children.filter((c) => c.name === name)
}

export async function assertReadableSize(file: string, maxBytes: number, what: string): Promise<number> {
  let size: number
  try {
    const info = await stat(file)
    if (!info.isFile()) throw new ImportFileError(`${file} is not a file`)
    size = info.size
  } catch (error) {
    if (error instanceof ImportFileError) throw error
    throw new ImportFileError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  if (size > maxBytes) {
    throw new ImportFileError(`${file} is ${(size / 1024 ** 2).toFixed(0)} MB, more than the ${(maxBytes / 1024 ** 2).toFixed(0)} MB an ${what} may be; split it and import the parts`)
  }
  if (size === 0) throw new ImportFileError(`${file} is empty`)
  return size
}

/** Reads the records of a WXR file in order. Throws ImportFileError, naming line and column, on a file that is not a WXR 1.1/1.2. */
export async function* readWxr(file: string, limits: WxrLimits = DEFAULT_WXR_LIMITS): AsyncGenerator<WxrRecord> {
  await assertReadableSize(file, limits.maxFileBytes, 'export file')
  const parser = new SaxesParser({ xmlns: false, position: true })
  const ready: WxrRecord[] = []
  const stack: XmlNode[] = [] // open elements inside the current record
  let path: string[] = [] // element names from the root
  let channel: { version: string; baseSiteUrl: string; baseBlogUrl: string; link: string } | null = null
  const channelFields: Record<string, string> = {}
  let channelField: string | null = null
  let recordChars = 0
  let failure: Error | null = null

  const fail = (message: string) => {
    if (!failure) failure = new ImportFileError(`not a readable WordPress export: ${message} (line ${parser.line}, column ${parser.column})`)
  }
  const announceChannel = () => {
    if (channel) return
    const version = channelFields['wp:wxr_version']?.trim()
    if (!version) return fail('no <wp:wxr_version> before the first record: this is not a WordPress export (WXR)')
    if (!SUPPORTED_VERSIONS.includes(version)) return fail(`WXR version ${version} is not supported (1.1 and 1.2 are, as WordPress 5 and 6 write them)`)
    channel = {
      version,
      baseSiteUrl: (channelFields['wp:base_site_url'] ?? '').trim(),
      baseBlogUrl: (channelFields['wp:base_blog_url'] ?? '').trim(),
      link: (channelFields['link'] ?? '').trim(),
    }
    ready.push({ kind: 'channel', ...channel })
  }
  const addText = (text: string) => {
    if (failure) return
    if (stack.length > 0) {
      recordChars += text.length
      if (recordChars > limits.maxRecordChars) return fail(`a record is longer than ${limits.maxRecordChars} characters`)
      stack[stack.length - 1]!.text += text
    } else if (channelField) {
      channelFields[channelField] = (channelFields[channelField] ?? '') + text.slice(0, 2000)
    }
  }

  parser.on('doctype', () => fail('a DOCTYPE is not allowed in an export (entity declarations are refused)'))
  parser.on('error', (error) => fail(error.message.replace(/^\S+:\d+:\d+: /, '')))
  parser.on('opentag', (tag) => {
    if (failure) return
    path.push(tag.name)
    if (path.length === 1 && tag.name !== 'rss') return fail(`the root element is <${tag.name}>, not <rss>`)
    if (stack.length > 0) {
      const node: XmlNode = { name: tag.name, attrs: { ...(tag.attributes as Record<string, string>) }, text: '', children: [] }
      stack[stack.length - 1]!.children.push(node)
      stack.push(node)
      return
    }
    if (path.length === 3 && path[1] === 'channel') {
      const kind = RECORDS[tag.name]
      if (kind) {
        announceChannel()
        if (failure) return
        recordChars = 0
        stack.push({ name: tag.name, attrs: { ...(tag.attributes as Record<string, string>) }, text: '', children: [] })
      } else if (CHANNEL_FIELDS.has(tag.name)) {
        channelField = tag.name
      }
    }
  })
  parser.on('text', addText)
  parser.on('cdata', addText)
  parser.on('closetag', (tag) => {
    if (failure) return
    path.pop()
    channelField = null
    if (stack.length === 0) return
    const node = stack.pop()!
    if (stack.length === 0) ready.push({ kind: RECORDS[tag.name]!, node })
  })

  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 })
  try {
    for await (const chunk of stream) {
      parser.write(chunk as string)
      if (failure) throw failure
      if (ready.length) yield* ready.splice(0)
    }
    parser.close()
    if (failure) throw failure
    if (path.length > 0) throw new ImportFileError('not a readable WordPress export: the file ends before </rss> (truncated?)')
    announceChannel()
    if (failure) throw failure
    yield* ready.splice(0)
  } finally {
    stream.destroy()
    path = []
  }
}
