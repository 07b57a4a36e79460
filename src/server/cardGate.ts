/**
 * Share-card requests (`/api/articles/<id>/card`, what og:image points at)
 * from one address past CARD_REQUESTS_PER_SECOND are answered 429 here, before
 * Next and Payload (issue 28 §2). A kept card costs no drawing, but each request
 * through the framework still costs ~0.7 ms of the event loop: a flood from one
 * address took the whole loop and the cached pages' p99 with it. Crawlers fetch
 * a card once per share; a browser, a handful per page. Drawing new ones has its
 * own, stricter limit per address (src/lib/rateLimit.ts, `cardDraw`).
 *
 * Counted per process, in memory (rate-limiter-flexible): what it protects is
 * this process's event loop, and a lookup must cost less than the request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'

import { requestedLanguage, t } from '../lib/i18n'

const CARD_PATH = /^\/api\/articles\/\d{1,15}\/card(?:[?#]|$)/
export const CARD_REQUESTS_PER_SECOND = 20

export function isCardRequest(url: string | undefined): boolean {
  return CARD_PATH.test(url ?? '')
}

/** The address a request is counted against: the socket's, or the one a trusted proxy gave (src/server/index.ts sets it). */
function addressOf(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-for']
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim()
  return first || req.socket.remoteAddress || 'unknown'
}

function answerTooMany(req: IncomingMessage, res: ServerResponse, seconds: number) {
  const message = t(requestedLanguage(req.headers.cookie, req.headers['accept-language']) ?? 'en', 'error.card.tooManyRequests', { seconds })
  const body = JSON.stringify({ errors: [{ message }] })
  res.writeHead(429, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', 'Retry-After': String(seconds) })
  res.end(body)
}

/**
 * `admit(req, res)` resolves true when the request may go on to the endpoint, false when it
 * was answered 429 (with Retry-After).
 */
export function cardGate({ perSecond = CARD_REQUESTS_PER_SECOND }: { perSecond?: number } = {}) {
  const limiter = new RateLimiterMemory({ points: perSecond, duration: 1 })
  return {
    async admit(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
      try {
        await limiter.consume(addressOf(req))
        return true
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal
        answerTooMany(req, res, Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)))
        return false
      }
    },
  }
}
