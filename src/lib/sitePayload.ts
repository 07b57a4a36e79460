/**
 * How the reader site (the Astro bundle) reaches the Payload instance of the
 * process it runs in. The one-origin server installs it once, before Astro
 * handles its first request; `frontend/src/lib/api/payload.ts` reads it. It is
 * process-shared (processShared) because the Astro bundle has its own copy of
 * every module it imports, so a plain module variable would not be shared.
 */
import type { Payload } from 'payload'

import { processShared } from './processShared'

export type SitePayload = {
  payload: Payload
  /** Payload's REST handling, in-process: for the visitor's own writes (forms), with the visitor's headers. */
  rest: (request: Request) => Promise<Response>
}

const installed = processShared('sitePayload', (): { site?: SitePayload } => ({}))

export function installSitePayload(site: SitePayload): void {
  installed.site = site
}

export function sitePayload(): SitePayload {
  const site = installed.site
  if (!site) throw new Error('The reader site runs inside the one-origin server (src/server), which provides Payload; none was installed.')
  return site
}
