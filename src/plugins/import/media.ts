/**
 * Images of imported content into Inkwell's media: each image URL of a body
 * (and each featured image) is fetched once through the guarded outbound
 * fetch (timeout, size cap, no private addresses) — or read from the
 * export's uploads folder given with --media-dir — stored as a Media upload
 * (which sniffs and refuses what is not a raster image), and the body's links
 * are rewritten to it. An image that cannot be had keeps its old URL and is
 * listed in the report.
 */
import { readFile, realpath } from 'node:fs/promises'
import path from 'node:path'

import { outboundFetch, type OutboundPolicy } from '../../lib/outboundFetch'
import { errorText, type ImportContext } from './store'

export type MediaOptions = { outbound: OutboundPolicy; mediaDir?: string; timeoutMs?: number; maxBytes?: number }

// Linear scans: each pattern's runs stop at the character that would start another match.
const MARKDOWN_IMAGE_URL = /!\[[^[\]\n]*\]\((https?:\/\/[^()\s]+)\)/g
const IMG_TAG = /<img\b[^<>]*>/gi
const SRC_ATTRIBUTE = /\ssrc="(https?:\/\/[^"\s<>]+)"/
const UPLOAD_FOLDERS = ['/wp-content/uploads/', '/content/images/']
const IMAGE_EXTENSION = /\.(jpe?g|png|gif|webp)$/i

export class MediaImporter {
  private done = new Map<string, string | null>()
  constructor(private readonly options: MediaOptions) {}

  /** The body with each image it could import pointing at Inkwell's copy. */
  async rewrite(ctx: ImportContext, markdown: string, what: string): Promise<string> {
    const urls = new Set<string>()
    for (const m of markdown.matchAll(MARKDOWN_IMAGE_URL)) urls.add(m[1]!)
    for (const [tag] of markdown.matchAll(IMG_TAG)) {
      const src = SRC_ATTRIBUTE.exec(tag)?.[1]
      if (src) urls.add(src)
    }
    let out = markdown
    for (const url of urls) {
      const local = await this.import(ctx, url, what)
      if (local) out = out.split(url).join(local)
    }
    return out
  }

  /** The article's SEO image (the featured image), when the SEO plugin is composed. */
  async featured(ctx: ImportContext, articleId: number, url: string | undefined, what: string): Promise<void> {
    if (!url || articleId <= 0) return
    const local = await this.import(ctx, url, what)
    if (!local) return
    const id = ctx.map.get('media', url)
    const hasMeta = ctx.payload.collections.articles?.config.fields.some((f) => 'name' in f && f.name === 'meta')
    if (!id || id <= 0 || !hasMeta) return
    await ctx.payload.update({ collection: 'articles', id: articleId, data: { meta: { image: id } } as never, overrideAccess: true, context: { importing: true } })
  }

  /** Inkwell's URL of the image, or null when it could not be imported (reported once). */
  private async import(ctx: ImportContext, url: string, what: string): Promise<string | null> {
    if (this.done.has(url)) return this.done.get(url)!
    const known = ctx.map.get('media', url)
    if (known !== undefined) {
      ctx.report.existing('media')
      const doc = known > 0 ? await ctx.payload.findByID({ collection: 'media', id: known, depth: 0, overrideAccess: true }).catch(() => null) : null
      const local = sitePath(doc?.url as string | undefined)
      this.done.set(url, local)
      return local
    }
    let local: string | null = null
    try {
      const { data, name } = await this.fetch(url)
      if (ctx.dryRun) {
        ctx.report.imported('media')
        await ctx.map.set(null, 'media', url, ctx.nextPlaceholder())
      } else {
        const doc = await ctx.payload.create({
          collection: 'media',
          data: { alt: '' },
          file: { data, name, size: data.length, mimetype: mimeOf(name) },
          overrideAccess: true,
          context: { importing: true },
        })
        ctx.report.imported('media')
        await ctx.map.set(ctx.payload, 'media', url, doc.id as number)
        local = sitePath(doc.url as string | undefined)
      }
    } catch (error) {
      ctx.report.fail('media', url, `${errorText(error)} (in ${what}; the old URL was kept)`)
    }
    this.done.set(url, local)
    return local
  }

  private async fetch(url: string): Promise<{ data: Buffer; name: string }> {
    const parsed = new URL(url)
    const name = decodeURIComponent(path.posix.basename(parsed.pathname)) || 'image'
    if (!IMAGE_EXTENSION.test(name)) throw new Error('not a JPEG, PNG, GIF or WebP file name')
    // WordPress keeps uploads under wp-content/uploads, Ghost under content/images: --media-dir is that folder.
    const marker = UPLOAD_FOLDERS.find((m) => parsed.pathname.includes(m))
    if (this.options.mediaDir && marker) {
      const root = await realpath(this.options.mediaDir)
      const file = path.resolve(root, decodeURIComponent(parsed.pathname.slice(parsed.pathname.indexOf(marker) + marker.length)))
      // Never outside the folder given (../ in a URL of the export).
      if (!file.startsWith(root + path.sep)) throw new Error('outside --media-dir')
      return { data: await readFile(file), name }
    }
    const answer = await outboundFetch(url, this.options.outbound, {
      timeoutMs: this.options.timeoutMs ?? 15_000,
      maxBytes: this.options.maxBytes ?? 20 * 1024 * 1024,
      maxRedirects: 3,
    })
    if (answer.status !== 200) throw new Error(`the server answered ${answer.status}`)
    return { data: answer.body, name }
  }
}

function mimeOf(name: string): string {
  const ext = name.toLowerCase().split('.').pop()
  return ext === 'png' ? 'image/png' : ext === 'gif' ? 'image/gif' : ext === 'webp' ? 'image/webp' : 'image/jpeg'
}

/** Media URLs as paths of this site (Payload makes them absolute with its server URL). */
function sitePath(url: string | undefined): string | null {
  if (!url) return null
  return url.startsWith('/') ? url : new URL(url).pathname
}
