/**
 * Share cards of published articles, as answered to anonymous readers, kept in
 * memory so the one-origin server answers the next request for one before Next
 * and Payload (issue 28 §2), the way the render cache answers a page.
 *
 * Why: a kept card answered through the framework still costs a few
 * milliseconds of the event loop (routing, Payload's request, the endpoint, a
 * web Response turned back into Node's). The per-address gate lets 20 a second
 * through, and they arrive together at the start of each second: 20 × 4 ms in
 * a burst held every other request behind them (the cached home's p99 beside a
 * card flood, 9–30 ms). Answered here, one costs what a cached page costs.
 *
 * The card endpoint (collections/Articles/endpoints/card.ts) is the only
 * writer: it keeps what it answered an anonymous reader of a published
 * article. An entry goes when what it shows is announced changed (the article,
 * its author, any category, the site settings: the same announcements as the
 * endpoint's facts memo), after a minute anyway, and by size (LRU, 32 MB).
 * Shared per process (processShared): the server and the Next bundle each
 * load their own copy of this module.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'

import { LRUCache } from 'lru-cache'

import { onInvalidate } from '../../lib/cacheBus'
import { processShared } from '../../lib/processShared'
import { negotiateCardType, parseCardRequest, type CardOptions } from './cardRequest'

export type KeptCard = {
  articleId: number
  authorId?: number
  options: CardOptions
  /** The endpoint's headers for this answer (Content-Type, ETag, Cache-Control, …), without Content-Length. */
  headers: Record<string, string>
  image: Buffer
}

type Store = { answers: LRUCache<string, KeptCard>; generation: number }

export const KEPT_CARDS_MAX_BYTES = 32 * 1024 * 1024
export const KEPT_CARD_TTL_MS = 60_000

const store = processShared('keptCardAnswers', (): Store => {
  const kept: Store = {
    answers: new LRUCache({ maxSize: KEPT_CARDS_MAX_BYTES, sizeCalculation: (card) => card.image.length + 1024, ttl: KEPT_CARD_TTL_MS }),
    generation: 0,
  }
  onInvalidate((tags) => forget(kept, tags))
  return kept
})

function keyOf(articleId: number, { width, theme, type }: CardOptions): string {
  return `${articleId}:${width}:${theme}:${type}`
}

function forget(kept: Store, tags: string[]): void {
  kept.generation++ // an answer drawn from facts read before this announcement is not kept (keepCardAnswer)
  for (const tag of tags) {
    if (tag === '*' || tag === 'settings' || tag === 'categories') return kept.answers.clear()
    const article = tag.startsWith('article:') ? Number(tag.slice('article:'.length)) : undefined
    const author = tag.startsWith('user:') ? Number(tag.slice('user:'.length)) : undefined
    if (article === undefined && author === undefined) continue
    for (const [key, card] of kept.answers.entries()) {
      if (card.articleId === article || (author !== undefined && card.authorId === author)) kept.answers.delete(key)
    }
  }
}

/** Taken before the endpoint reads what a card shows; handed back to keepCardAnswer. */
export function keptCardsGeneration(): number {
  return store.generation
}

/** Keeps an answer, unless something it shows was announced changed since `generation`. */
export function keepCardAnswer(card: KeptCard, generation: number): void {
  if (store.generation === generation) store.answers.set(keyOf(card.articleId, card.options), card)
}

const CARD_URL = /^\/api\/articles\/(\d{1,15})\/card(?:\?(.*))?$/s

/** The kept answer for a GET of a card, if there is one; anything else is the endpoint's. */
function keptFor(req: IncomingMessage): KeptCard | undefined {
  if (req.method !== 'GET') return undefined
  const match = CARD_URL.exec(req.url ?? '')
  if (!match) return undefined
  const type = negotiateCardType(req.headers.accept ?? null)
  if (!type) return undefined // 406, worded by the endpoint in the reader's language
  const parsed = parseCardRequest(Object.fromEntries(new URLSearchParams(match[2] ?? '')))
  if ('errors' in parsed) return undefined // 400, likewise
  return store.answers.get(keyOf(Number(match[1]), { ...parsed.value, type }))
}

/**
 * Answers a GET of a kept card in one writeHead, with `extra` headers (the security headers and
 * the request id); false when there is none, for the endpoint to answer. Only for a request that
 * carries no session (the caller's to tell: src/server/privateCaching.ts `carriesSession`), as
 * only anonymous answers are kept.
 */
export function answerKeptCard(req: IncomingMessage, res: ServerResponse, extra: OutgoingHttpHeaders): boolean {
  const card = keptFor(req)
  if (!card) return false
  const notModified = req.headers['if-none-match']?.split(',').some((tag) => tag.trim() === card.headers.ETag)
  if (notModified) {
    res.writeHead(304, { ...extra, ...card.headers, 'X-Cache': 'HIT' })
    res.end()
  } else {
    res.writeHead(200, { ...extra, ...card.headers, 'Content-Length': card.image.length, 'X-Card-Width': String(card.options.width), 'X-Card-Drawn': 'kept', 'X-Cache': 'HIT' })
    res.end(card.image)
  }
  return true
}
