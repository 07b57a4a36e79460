import { addDataAndFileToRequest, type Endpoint, type PayloadRequest } from 'payload'

import path from 'node:path'

import { LRUCache } from 'lru-cache'

import { onInvalidate } from '../../../src/lib/cacheBus'
import { getEnv } from '../../../src/lib/env'
import { errorResponse } from '../../../src/lib/errorResponse'
import { diskStore, type FileStore } from '../../../src/lib/fileStore'
import { translatorFor } from '../../../src/lib/i18n/request'
import { processShared } from '../../../src/lib/processShared'
import { limitByIp, RateLimited } from '../../../src/lib/rateLimit'
import {
  cardETag,
  cardVersion,
  CARD_FORMATS,
  CARD_WIDTHS,
  drawCard,
  negotiateCardType,
  parseCardRequest,
  storedCard,
  type CardContent,
} from '../../../src/plugins/content/shareCard'
import { keepCardAnswer, keptCardsGeneration } from '../../../src/plugins/content/keptCards'
import { cardStoreOf } from '../../../src/plugins/storage'

const IMAGE_TYPES = Object.keys(CARD_FORMATS).join(', ')

/** Without the storage plugin's say (a config composed without it): DATA_DIR/cards, one store per instance. */
const fallbackStores = new WeakMap<PayloadRequest['payload'], FileStore>()
function cardStore(payload: PayloadRequest['payload']): FileStore {
  const configured = cardStoreOf(payload)
  if (configured) return configured
  if (!fallbackStores.has(payload)) fallbackStores.set(payload, diskStore(path.join(getEnv().dataDir, 'cards')))
  return fallbackStores.get(payload)!
}

function problem(status: number, message: string, field?: string, headers: Record<string, string> = {}): Response {
  return errorResponse(status, { message, fields: field ? { [field]: message } : undefined, headers: { 'Cache-Control': 'no-store', Vary: 'Accept', ...headers } })
}

async function requestedOptions(req: PayloadRequest): Promise<Record<string, unknown>> {
  if (req.method === 'GET') return Object.fromEntries(req.searchParams?.entries() ?? [])
  await addDataAndFileToRequest(req)
  return (req.data ?? {}) as Record<string, unknown>
}

type CardArticle = {
  id: number
  title: string
  status?: string | null
  updatedAt: string
  author?: { name?: string | null } | number | null
  category?: { name?: string | null } | number | null
}

/**
 * What a published article's card shows an anonymous reader, per article, so that a flood of
 * card requests (crawlers, or random parameters) costs a memory lookup instead of four reads
 * (the article, its author and category, the site settings). Dropped when something it shows
 * is announced changed (src/lib/cacheBus: the article, its author, any category, the settings;
 * in the web process once more when the write commits), and after a minute anyway.
 */
type CardFacts = { article: CardArticle; content: CardContent; authorId?: number }
type FactsMemo = { facts: LRUCache<number, CardFacts>; generation: number }
const factsMemos = processShared('anonymousCardFacts', () => {
  const memos = new WeakMap<PayloadRequest['payload'], FactsMemo>()
  const all = new Set<FactsMemo>()
  onInvalidate((tags) => {
    for (const memo of all) forget(memo, tags)
  })
  return {
    of(payload: PayloadRequest['payload']): FactsMemo {
      let memo = memos.get(payload)
      if (!memo) {
        memo = { facts: new LRUCache({ max: 1_000, ttl: 60_000 }), generation: 0 }
        memos.set(payload, memo)
        all.add(memo)
      }
      return memo
    },
  }
})

function forget(memo: FactsMemo, tags: string[]): void {
  memo.generation++ // a read begun before this announcement may hold what it dropped: not kept (see anonymousFacts)
  for (const tag of tags) {
    if (tag === '*' || tag === 'settings' || tag === 'categories') return memo.facts.clear()
    if (tag.startsWith('article:')) memo.facts.delete(Number(tag.slice('article:'.length)))
    if (tag.startsWith('user:')) {
      const userId = Number(tag.slice('user:'.length))
      for (const [id, facts] of memo.facts.entries()) if (facts.authorId === userId) memo.facts.delete(id)
    }
  }
}

async function readFacts(req: PayloadRequest, id: number): Promise<CardFacts | null> {
  const article = (await req.payload.findByID({
    collection: 'articles',
    id,
    depth: 1,
    overrideAccess: false,
    disableErrors: true,
    req,
    select: { title: true, status: true, updatedAt: true, author: true, category: true },
  })) as CardArticle | null
  if (!article) return null
  const authorId = typeof article.author === 'object' && article.author ? (article.author as { id?: number }).id : undefined
  return { article, content: await cardContent(req, article), authorId }
}

/** The facts for this reader: kept ones for an anonymous reader of a published article, else read now. */
async function factsFor(req: PayloadRequest, id: number): Promise<CardFacts | null> {
  if (req.user) return readFacts(req, id)
  const memo = factsMemos.of(req.payload)
  const kept = memo.facts.get(id)
  if (kept) return kept
  const generation = memo.generation
  const facts = await readFacts(req, id)
  if (facts?.article.status === 'published' && memo.generation === generation) memo.facts.set(id, facts)
  return facts
}

async function cardContent(req: PayloadRequest, article: CardArticle): Promise<CardContent> {
  const settings = (await req.payload.findGlobal({ slug: 'site-settings', depth: 0, req })) as { siteName?: string | null }
  const author = typeof article.author === 'object' && article.author ? article.author.name : undefined
  const category = typeof article.category === 'object' && article.category ? article.category.name : undefined
  return { title: article.title, author: author || 'Anonymous', category: category ?? undefined, siteName: settings.siteName || 'Inkwell' }
}

/**
 * The article's share image. `POST /api/articles/<id>/card` with a JSON body
 * `{"width": 1200, "theme": "dark"}`, or `GET` with the same as a query (what
 * crawlers fetch for og:image). The image type follows Accept (PNG, JPEG,
 * WebP); a client that accepts none of them gets 406. Only a reader who may
 * read the article gets its card. Read-only: a read-scope token may call it.
 *
 * It is drawn at the nearest of CARD_WIDTHS (`X-Card-Width` says which), once
 * per version of the article, and kept under DATA_DIR/cards or, with S3_BUCKET,
 * in the bucket under `cards/` (every web process serves it); drawing (never
 * serving a kept card) is rate-limited per IP (429 with Retry-After).
 */
const handler: Endpoint['handler'] = async (req) => {
  const t = translatorFor(req)
  const type = negotiateCardType(req.headers.get('accept'))
  if (!type) {
    return problem(406, t('error.card.accept', { accept: req.headers.get('accept') ?? '', types: IMAGE_TYPES }))
  }
  const parsed = parseCardRequest(await requestedOptions(req), t)
  if ('errors' in parsed) {
    const [field, message] = Object.entries(parsed.errors)[0]!
    return errorResponse(400, { message, fields: parsed.errors, headers: { 'Cache-Control': 'no-store', 'X-Invalid-Field': field } })
  }
  const id = String(req.routeParams?.id ?? '')
  if (!/^\d{1,15}$/.test(id)) return problem(404, t('error.card.noArticle', { id }))
  const generation = keptCardsGeneration()
  const facts = await factsFor(req, Number(id))
  if (!facts) return problem(404, t('error.card.unreadable', { id }))
  const { article, content } = facts
  const options = { ...parsed.value, type }
  const etag = cardETag(content, options, article.updatedAt)
  const headers = {
    'Content-Type': type,
    ETag: etag,
    Vary: 'Accept',
    // A published article's card is the same for everyone; a draft's is only for those who may see it.
    'Cache-Control': article.status === 'published' ? 'public, max-age=3600, stale-while-revalidate=86400' : 'private, no-cache',
  }
  if (req.headers.get('if-none-match')?.split(',').some((tag) => tag.trim() === etag)) return new Response(null, { status: 304, headers })
  const card = { store: cardStore(req.payload), articleId: article.id, version: cardVersion(content, article.updatedAt), options }
  try {
    const { image, drawn } = await storedCard(card, () => drawCard(content, options), () => limitByIp(req, 'cardDraw'))
    // The next anonymous reader of it is answered by the one-origin server, before the framework (keptCards.ts).
    if (!req.user && article.status === 'published') keepCardAnswer({ articleId: article.id, authorId: facts.authorId, options, headers, image }, generation)
    return new Response(new Uint8Array(image), {
      status: 200,
      headers: { ...headers, 'Content-Length': String(image.length), 'X-Card-Width': String(options.width), 'X-Card-Drawn': drawn ? 'now' : 'kept' },
    })
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error
    return problem(429, t('error.card.tooMany', { seconds: error.retryAfterSeconds, widths: CARD_WIDTHS.join(', ') }), undefined, {
      'Retry-After': String(error.retryAfterSeconds),
    })
  }
}

export const cardEndpoint: Endpoint = { path: '/:id/card', method: 'post', handler, custom: { readOnly: true } }
export const cardForCrawlers: Endpoint = { path: '/:id/card', method: 'get', handler }
