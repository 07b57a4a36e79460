/**
 * A size limit on every request body, enforced before the body is read in
 * full, for Next/Payload and Astro alike: a declared Content-Length over the
 * limit is answered 413 at once; a chunked body is counted as the HTTP parser
 * delivers it and answered 413 the moment it goes over. Nothing beyond the
 * limit is buffered.
 *
 * JSON and form bodies get MAX_BODY_BYTES (1 MB by default). Multipart bodies
 * to the upload routes (media, avatars) get UPLOAD_MAX_BYTES plus room for the
 * multipart framing; Payload then checks the file itself against the same
 * setting. Articles are the one document that is large by design (a body of
 * up to 500,000 characters, and its highlighted HTML many times that, which
 * the admin sends back with every save and form-state request), so writes to
 * /api/articles and the admin's own requests get the upload limit too.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

import { requestedLanguage, t } from '../lib/i18n'

export type BodyLimits = { maxBodyBytes: number; uploadMaxBytes: number }

// Media, avatars, and an export uploaded on the admin's import page.
const UPLOAD_ROUTES = /^\/api\/(media|accounts\/avatar|import-reports\/upload)(\/|\?|$)/
const ARTICLE_ROUTES = /^\/(api\/articles|admin)(\/|\?|$)/
const MULTIPART_FRAMING = 64 * 1024

export function bodyLimitFor(req: IncomingMessage, limits: BodyLimits): number {
  const url = req.url ?? '/'
  const multipart = /^multipart\/form-data/i.test(req.headers['content-type'] ?? '')
  if ((multipart && UPLOAD_ROUTES.test(url)) || ARTICLE_ROUTES.test(url)) {
    return Math.max(limits.maxBodyBytes, limits.uploadMaxBytes + MULTIPART_FRAMING)
  }
  return limits.maxBodyBytes
}

function answerTooLarge(req: IncomingMessage, res: ServerResponse, limit: number, setting: string) {
  if (res.headersSent) return void req.destroy()
  // In the language the request asks for (its `lang` cookie or Accept-Language): no session is looked up before the body.
  const message = t(requestedLanguage(req.headers.cookie, req.headers['accept-language']) ?? 'en', 'error.body.tooLarge', { limit, setting })
  const api = (req.url ?? '').startsWith('/api/')
  const body = api ? JSON.stringify({ errors: [{ message }] }) : message + '\n'
  res.writeHead(413, {
    'Content-Type': api ? 'application/json' : 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    // The rest of the body is not read; the connection cannot be reused.
    Connection: 'close',
  })
  // Closed once the answer is out; the client sees the 413, not a reset.
  res.end(body, () => setImmediate(() => req.socket.destroySoon()))
}

/**
 * Applies the limit to one request. Returns true when it was answered (413)
 * and must not be handed to a framework.
 */
export function enforceBodyLimit(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): boolean {
  const limit = bodyLimitFor(req, limits)
  const setting = limit === limits.maxBodyBytes ? 'MAX_BODY_BYTES' : 'UPLOAD_MAX_BYTES'
  const declared = req.headers['content-length']
  if (declared !== undefined && Number(declared) > limit) {
    answerTooLarge(req, res, limit, setting)
    return true
  }
  if (declared !== undefined || !req.headers['transfer-encoding']) return false // Node's parser holds a body to its declared length
  // Chunked: count what the parser pushes into the request stream, which is
  // where both frameworks read it from. Over the limit, nothing more is pushed.
  let received = 0
  let refused = false
  const push = req.push.bind(req)
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (refused) return false
    if (chunk !== null && chunk !== undefined) {
      received += (chunk as Buffer).length
      if (received > limit) {
        refused = true
        answerTooLarge(req, res, limit, setting)
        return false
      }
    }
    return push(chunk, encoding)
  }
  return false
}
