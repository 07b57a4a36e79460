/**
 * Payload (3.90) honours the session cookie on a request without an Origin
 * header only when Fetch Metadata says it is not cross-site
 * (`Sec-Fetch-Site: same-origin | same-site | none`). Browsers send Fetch
 * Metadata only to potentially trustworthy origins (https, localhost,
 * loopback), so on a plain-HTTP host such as http://inkwell.test every
 * navigation and every GET the admin makes arrives with neither header, and
 * the signed-in user is treated as signed out: /admin redirects to its login
 * screen right after a successful sign-in (and the debug user switcher, which
 * lives on .test/.local hosts, is never shown).
 *
 * Only for that case — BASE_URL is plain HTTP on a host browsers do not trust,
 * the request is a GET or HEAD to that very host, and carries neither Origin
 * nor Sec-Fetch-Site — the request is marked same-origin, which is what a
 * browser reports for it over https. Writes are untouched: browsers send
 * Origin with them, and Payload checks it against its csrf list. The session
 * cookie is SameSite=Lax, so a cross-site request carries it only as a
 * top-level GET navigation, which reads and changes nothing the other site
 * can see.
 */
import type { IncomingMessage } from 'node:http'

/** Whether browsers treat an origin as potentially trustworthy (and so send it Fetch Metadata, and honour its Cross-Origin-Opener-Policy). */
export function trustworthy(url: URL): boolean {
  if (url.protocol === 'https:') return true
  const host = url.hostname.toLowerCase()
  return host === 'localhost' || host.endsWith('.localhost') || host.startsWith('127.') || host === '[::1]'
}

/** A per-request function for the origin `baseUrl`, or undefined when browsers send that origin Fetch Metadata themselves. */
export function plainHttpFetchSite(baseUrl: string): ((req: IncomingMessage) => void) | undefined {
  const base = new URL(baseUrl)
  if (trustworthy(base)) return undefined
  const host = base.host.toLowerCase()
  return (req) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return
    if (req.headers.origin !== undefined || req.headers['sec-fetch-site'] !== undefined) return
    if ((req.headers.host ?? '').toLowerCase() !== host) return
    req.headers['sec-fetch-site'] = 'same-origin'
  }
}
