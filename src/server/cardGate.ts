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
 *
 * A refusal is what a flood is made of, so it is written like a cache hit: its
 * body and headers made once per language, the security headers among them, in
 * one `writeHead`. Security headers set one by one beforehand (`setHeader`, then
 * merged by `writeHead`) and the message formatted each time made a refusal
 * cost about twice a cached page, and the collector ran five times as often.
 *
 * And a refusal is held until the address's one-second window ends (as nginx's
 * `limit_req` delays what exceeds the rate, or express-slow-down): a client that
 * waits for each answer before asking again — a crawler, or a flood over a few
 * connections — then gets about one refusal per connection per second instead
 * of one per round trip, so a flood costs the process next to nothing rather
 * than a core. At most MAX_HELD refusals are held at once (a timer each);
 * past that they are answered at once.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'

import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'

import { type Language, requestedLanguage, t } from '../lib/i18n'

const CARD_PATH = /^\/api\/articles\/\d{1,15}\/card(?:[?#]|$)/
export const CARD_REQUESTS_PER_SECOND = 20
export const MAX_HELD = 1_000

export function isCardRequest(url: string | undefined): boolean {
  return CARD_PATH.test(url ?? '')
}

/** The address a request is counted against: the socket's, or the one a trusted proxy gave (src/server/index.ts sets it). */
function addressOf(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-for']
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim()
  return first || req.socket.remoteAddress || 'unknown'
}

type Refusal = { body: Buffer; headers: OutgoingHttpHeaders }

/**
 * `admit(req, res, requestId)` resolves true when the request may go on to the endpoint (its
 * security headers and request id are then the caller's to set), false when it is refused: then
 * answered 429 with Retry-After, the security headers given here and the request id, once the
 * address's window has ended (or at once, with MAX_HELD refusals held already).
 */
export function cardGate({
  perSecond = CARD_REQUESTS_PER_SECOND,
  securityHeaders = [],
  maxHeld = MAX_HELD,
}: { perSecond?: number; securityHeaders?: [name: string, value: string][]; maxHeld?: number } = {}) {
  const limiter = new RateLimiterMemory({ points: perSecond, duration: 1 })
  let held = 0
  // Keyed by language and wait: the wait is within the one-second window, so a handful of entries.
  const refusals = new Map<string, Refusal>()

  function refusalOf(language: Language, seconds: number): Refusal {
    const key = `${language}:${seconds}`
    let refusal = refusals.get(key)
    if (!refusal) {
      const body = Buffer.from(JSON.stringify({ errors: [{ message: t(language, 'error.card.tooManyRequests', { seconds }) }] }))
      const headers: OutgoingHttpHeaders = Object.fromEntries(securityHeaders)
      Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': body.length, 'Cache-Control': 'no-store', 'Retry-After': String(seconds) })
      refusal = { body, headers }
      refusals.set(key, refusal)
    }
    return refusal
  }

  function answerTooMany(req: IncomingMessage, res: ServerResponse, seconds: number, requestId: string | undefined) {
    const { body, headers } = refusalOf(requestedLanguage(req.headers.cookie, req.headers['accept-language']) ?? 'en', seconds)
    res.writeHead(429, requestId === undefined ? headers : { ...headers, 'x-request-id': requestId })
    res.end(body)
  }

  return {
    async admit(req: IncomingMessage, res: ServerResponse, requestId?: string): Promise<boolean> {
      try {
        await limiter.consume(addressOf(req))
        return true
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal
        const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))
        if (held >= maxHeld) answerTooMany(req, res, seconds, requestId)
        else {
          held++
          setTimeout(() => {
            held--
            if (!res.destroyed) answerTooMany(req, res, 1, requestId) // the window has ended: asking again now is admitted
          }, refusal.msBeforeNext).unref()
        }
        return false
      }
    },
  }
}
