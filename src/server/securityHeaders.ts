/**
 * Security headers on every response of the one origin, built by helmet (its
 * header builders, not hand-written strings), in two policies:
 *
 *  - the reader site (Astro): no inline script at all (`script-src 'self'`;
 *    the build emits every script as a file), styles from the site plus inline
 *    `style` attributes (the code highlighter's colour variables), images from
 *    the site, `data:` and any https host (authors may embed images in
 *    articles; replies cannot, see src/lib/sanitize.ts ImagePolicy);
 *  - the admin, API and OAuth routes (Next.js + Payload): Next bootstraps the
 *    page with inline scripts, so `'unsafe-inline'` scripts there; everything
 *    else from the site itself.
 *
 * Both: no framing (`frame-ancestors 'none'` and `X-Frame-Options: DENY`),
 * except the draft preview pages (`/preview/…`), which the admin's live
 * preview shows in an iframe beside the editor: framed by the site itself
 * only (`frame-ancestors 'self'`, `X-Frame-Options: SAMEORIGIN`),
 * `nosniff`, `Referrer-Policy: strict-origin-when-cross-origin`, no plugins,
 * `base-uri` and `form-action` 'self', and HSTS when BASE_URL is https.
 * `Cross-Origin-Opener-Policy` only where browsers honour it (https,
 * localhost, loopback): on a plain-HTTP host Chromium ignores it and logs a
 * console error on every page.
 *
 * The sign-in routes (`/login/<provider>`, its callback and unlink) send
 * `Referrer-Policy: no-referrer` instead: their URLs carry a one-time code and
 * state, which no next page may see. It is set here because Next.js keeps a
 * header already on the response over the route's own (issue 27, item 13).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

import helmet, { type HelmetOptions } from 'helmet'

import { trustworthy } from './plainHttpFetchSite'

type Directives = Record<string, string[]>

const COMMON: Directives = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
}

export const SITE_DIRECTIVES: Directives = {
  ...COMMON,
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'img-src': ["'self'", 'data:', 'https:'],
}

export const ADMIN_DIRECTIVES: Directives = {
  ...COMMON,
  'script-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:', 'https:'],
  'worker-src': ["'self'", 'blob:'],
}

/** The draft preview pages (src/plugins/drafts, frontend/src/pages/preview/[id].astro): the admin's live preview frames them. */
export const isFramedBySite = (url: string | undefined): boolean => url?.startsWith('/preview/') ?? false

type ReferrerPolicy = 'strict-origin-when-cross-origin' | 'no-referrer'

function options(
  directives: Directives,
  https: boolean,
  honoursOpenerPolicy: boolean,
  referrer: ReferrerPolicy = 'strict-origin-when-cross-origin',
  framing: 'deny' | 'sameorigin' = 'deny',
): HelmetOptions {
  return {
    crossOriginOpenerPolicy: honoursOpenerPolicy ? { policy: 'same-origin' } : false,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: https ? { ...directives, 'upgrade-insecure-requests': [] } : directives,
    },
    xFrameOptions: { action: framing },
    referrerPolicy: { policy: referrer },
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true } : false,
    // Images and feeds are embedded by other sites and feed readers on purpose.
    crossOriginResourcePolicy: false,
  }
}

export type SecurityHeaders = ((req: IncomingMessage, res: ServerResponse, owner: 'next' | 'astro' | 'health') => void) & {
  /** The reader site's list, for the render cache to write with a cached page (renderCache.ts, `securityHeaders`). */
  site: [name: string, value: string][]
  /** The API's list, for an answer written in one writeHead before the framework (cardGate.ts). */
  admin: [name: string, value: string][]
}

type HeaderList = [name: string, value: string][]

/**
 * The headers a helmet middleware sets, read once: they depend only on the
 * options, never on the request, and replaying a list is cheaper on every
 * response (a cached page is answered in microseconds) than helmet's chain.
 */
function headersOf(middleware: ReturnType<typeof helmet>): HeaderList {
  const list: HeaderList = []
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => list.push([name, String(value)]),
    removeHeader: () => undefined,
  }
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined)
  return list
}

export function securityHeaders({ baseUrl }: { baseUrl: string }): SecurityHeaders {
  const https = baseUrl.startsWith('https://')
  const coop = trustworthy(new URL(baseUrl))
  const site = headersOf(helmet(options(SITE_DIRECTIVES, https, coop)))
  const admin = headersOf(helmet(options(ADMIN_DIRECTIVES, https, coop)))
  const signIn = headersOf(helmet(options(ADMIN_DIRECTIVES, https, coop, 'no-referrer')))
  const preview = headersOf(helmet(options({ ...SITE_DIRECTIVES, 'frame-ancestors': ["'self'"] }, https, coop, undefined, 'sameorigin')))
  const set = (req: IncomingMessage, res: ServerResponse, owner: 'next' | 'astro' | 'health') => {
    const list = owner === 'next' ? (req.url?.startsWith('/login/') ? signIn : admin) : owner === 'astro' && isFramedBySite(req.url) ? preview : site
    for (const [name, value] of list) res.setHeader(name, value)
  }
  return Object.assign(set, { site, admin })
}
