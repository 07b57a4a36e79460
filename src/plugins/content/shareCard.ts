/**
 * An article's share image (og:image), drawn with sharp: the title, the
 * author, the category and the site name on a plain background. Text is laid
 * out by Pango with fontconfig's fallback per character, so CJK titles are
 * drawn with a CJK font when one is installed (scripts/ensure-fonts.sh
 * installs Noto CJK) rather than as empty boxes.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'

import { LRUCache } from 'lru-cache'
import sharp from 'sharp'

import { readWhole, type FileStore } from '../../lib/fileStore'
import { CARD_FORMATS, type CardOptions, type CardTheme } from './cardRequest'

// The request's side (widths, themes, types, parsing) is apart, for the one-origin server to read without sharp.
export * from './cardRequest'

/** The shape crawlers expect of og:image (1200×630, 1.91:1). */
const ASPECT = 630 / 1200
/** Bumped when the drawing changes, so ETags and cached URLs change with it. */
const RENDERER_VERSION = '1'

const PALETTES: Record<CardTheme, { background: string; accent: string; title: string; text: string }> = {
  light: { background: '#fbfaf7', accent: '#b4492f', title: '#1c1917', text: '#57534e' },
  dark: { background: '#16181d', accent: '#f08a6c', title: '#f5f5f4', text: '#a8a29e' },
}

export type CardContent = { title: string; author: string; category?: string; siteName: string }

/** Pango markup is XML: user text is escaped for it. */
function markup(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
}

/** One block of text, at `size` points for a card `scale` times the 1200 px design, shrunk to fit its box when too long. */
async function textBlock(text: string, color: string, { width, maxHeight, size, bold = false, dpi }: { width: number; maxHeight: number; size: number; bold?: boolean; dpi: number }) {
  const span = `<span foreground="${color}">${markup(text)}</span>`
  const font = `sans-serif${bold ? ' Bold' : ''} ${size}`
  const natural = await sharp({ text: { text: span, font, width, dpi, rgba: true, wrap: 'word-char' } }).png().toBuffer({ resolveWithObject: true })
  if (natural.info.height <= maxHeight) return natural
  // Too long at the design size: Pango picks the largest size that fits the box.
  return sharp({ text: { text: span, font: `sans-serif${bold ? ' Bold' : ''}`, width, height: maxHeight, rgba: true, wrap: 'word-char' } })
    .png()
    .toBuffer({ resolveWithObject: true })
}

export function cardETag(content: CardContent, options: CardOptions, version: string): string {
  const digest = createHash('sha256').update(JSON.stringify([RENDERER_VERSION, version, content, options])).digest('base64url').slice(0, 27)
  return `"${digest}"`
}

/** What one version of an article's card shows (its text and the drawing), whatever the size: kept files of other versions are stale. */
export function cardVersion(content: CardContent, version: string): string {
  return createHash('sha256').update(JSON.stringify([RENDERER_VERSION, version, content])).digest('hex').slice(0, 16)
}

export async function drawCard(content: CardContent, { width, theme, type }: CardOptions): Promise<Buffer> {
  const height = Math.round(width * ASPECT)
  const scale = width / 1200
  const dpi = Math.max(18, Math.round(72 * scale))
  const palette = PALETTES[theme]
  const pad = Math.round(80 * scale)
  const inner = width - 2 * pad
  const byline = [content.author, content.category].filter(Boolean).join('  ·  ')

  const [site, title, meta] = await Promise.all([
    textBlock(content.siteName, palette.accent, { width: inner, maxHeight: Math.round(60 * scale), size: 26, bold: true, dpi }),
    textBlock(content.title, palette.title, { width: inner, maxHeight: Math.round(300 * scale), size: 60, bold: true, dpi }),
    textBlock(byline, palette.text, { width: inner, maxHeight: Math.round(60 * scale), size: 28, dpi }),
  ])
  const bar = Math.max(2, Math.round(10 * scale))
  const accentBar = await sharp({ create: { width, height: bar, channels: 4, background: palette.accent } }).png().toBuffer()
  const canvas = sharp({ create: { width, height, channels: 4, background: palette.background } }).composite([
    { input: accentBar, left: 0, top: 0 },
    { input: site.data, left: pad, top: pad },
    { input: title.data, left: pad, top: Math.round((height - title.info.height) / 2) },
    { input: meta.data, left: pad, top: height - pad - meta.info.height },
  ])
  const format = CARD_FORMATS[type]
  if (format === 'jpeg') return canvas.flatten({ background: palette.background }).jpeg({ quality: 85, mozjpeg: true }).toBuffer()
  if (format === 'webp') return canvas.webp({ quality: 85 }).toBuffer()
  return canvas.png({ compressionLevel: 9 }).toBuffer()
}

/** Recently served cards of one store, by key: crawlers fetch the same image again and again. */
type CardCache = { rendered: LRUCache<string, Buffer>; drawing: Map<string, Promise<Buffer>> }
/** Per store, so each instance's memory stands for its own process's (two instances in one test process share nothing). */
const caches = new WeakMap<FileStore, CardCache>()
/** One card is drawn at a time in a process: a flood of new variants queues here instead of taking every core. */
let drawQueue: Promise<unknown> = Promise.resolve()

function cacheOf(store: FileStore): CardCache {
  let cache = caches.get(store)
  if (!cache) {
    cache = { rendered: new LRUCache<string, Buffer>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (b) => b.length }), drawing: new Map() }
    caches.set(store, cache)
  }
  return cache
}

export type StoredCard = {
  /** Where the cards are kept: DATA_DIR/cards, or the bucket's `cards/` (cardStoreOf, src/plugins/storage). */
  store: FileStore
  articleId: number
  version: string
  options: CardOptions
}

/** `<article>/<version>-<width>-<theme>.<format>`: one folder per article, so its old versions are found by prefix. */
function cardKey({ articleId, version, options }: StoredCard): string {
  return `${articleId}/${version}-${options.width}-${options.theme}.${CARD_FORMATS[options.type]}`
}

/** Removes the kept cards of the article's other versions (best effort: a leftover is only wasted space). */
async function dropOtherVersions({ store, articleId, version }: StoredCard): Promise<void> {
  const current = `${articleId}/${version}-`
  for (const key of await store.list(`${articleId}/`)) {
    if (!key.startsWith(current)) await store.remove(key)
  }
}

/**
 * The card from memory, else from its store, else drawn (`beforeDraw` runs
 * first: the rate limit, which may refuse) and written to the store, with the
 * cards of the article's older versions removed. With a bucket every web
 * process finds there what any of them drew. Concurrent requests for one card
 * in a process share one drawing. `drawn` tells whether this call drew it.
 */
export async function storedCard(card: StoredCard, draw: () => Promise<Buffer>, beforeDraw: () => Promise<void> = async () => {}): Promise<{ image: Buffer; drawn: boolean }> {
  const { rendered, drawing } = cacheOf(card.store)
  const key = cardKey(card)
  const hit = rendered.get(key)
  if (hit) return { image: hit, drawn: false }
  const kept = await readWhole(card.store, key)
  if (kept) {
    rendered.set(key, kept)
    return { image: kept, drawn: false }
  }
  const pending = drawing.get(key)
  if (pending) return { image: await pending, drawn: false }
  await beforeDraw()
  const job = drawQueue.then(async () => {
    const image = await draw()
    await card.store.write(key, Readable.from([image]), card.options.type)
    await dropOtherVersions(card).catch(() => undefined)
    rendered.set(key, image)
    return image
  })
  drawQueue = job.catch(() => undefined)
  drawing.set(key, job)
  try {
    return { image: await job, drawn: true }
  } finally {
    drawing.delete(key)
  }
}

/** The cards kept for an article, by file name (tests). */
export async function storedCardFiles(store: FileStore, articleId: number): Promise<string[]> {
  return (await store.list(`${articleId}/`)).map((key) => key.slice(key.indexOf('/') + 1))
}

/**
 * Whether fontconfig, which the card renderer (Pango, through sharp) asks for
 * a font per character, knows one for Chinese. Asked of fontconfig rather than
 * judged from pixels: without a font Pango draws a box holding the character's
 * code, so two characters' boxes differ and look like glyphs. `env` lets a
 * test point fontconfig at another configuration (FONTCONFIG_FILE).
 */
export function cjkFontInstalled({ env = process.env }: { env?: NodeJS.ProcessEnv } = {}): Promise<boolean> {
  return new Promise((resolve) => {
    // No fc-list means no fontconfig tools; scripts/ensure-fonts.sh installs both.
    execFile('fc-list', [':lang=zh', 'family'], { env, timeout: 10_000 }, (error, stdout) => resolve(!error && stdout.trim() !== ''))
  })
}
