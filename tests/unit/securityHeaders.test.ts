/** The security header policies on a real Node HTTP server (issue 9, item 7): HSTS only for https sites. */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { describe, expect, it } from 'vitest'

import { securityHeaders } from '../../src/server/securityHeaders'

/**
 * The headers a request gets. `routeHeaders` are what the route itself answers with, copied
 * the way Next.js's sendResponse does: only headers not already on the response.
 */
async function headersFrom(baseUrl: string, owner: 'next' | 'astro', path = '/', routeHeaders: Record<string, string> = {}): Promise<Headers> {
  const apply = securityHeaders({ baseUrl })
  const server = http.createServer((req, res) => {
    apply(req, res, owner)
    for (const [name, value] of Object.entries(routeHeaders)) if (res.getHeader(name) === undefined) res.appendHeader(name, value)
    res.end('ok')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    return (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`)).headers
  } finally {
    server.close()
  }
}

describe('security headers', () => {
  it('send HSTS and upgrade-insecure-requests when BASE_URL is https', async () => {
    const h = await headersFrom('https://blog.example.com', 'astro')
    expect(h.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
    expect(h.get('content-security-policy')).toContain('upgrade-insecure-requests')
  })

  it('send Cross-Origin-Opener-Policy only where browsers honour it: https, localhost and loopback, not a plain-HTTP host (issue 26)', async () => {
    for (const baseUrl of ['https://blog.example.com', 'http://localhost:3000', 'http://127.0.0.1:3000', 'http://blog.localhost:3000']) {
      for (const owner of ['astro', 'next'] as const) expect((await headersFrom(baseUrl, owner)).get('cross-origin-opener-policy'), `${baseUrl} ${owner}`).toBe('same-origin')
    }
    for (const baseUrl of ['http://inkwell.test:3000', 'http://192.168.1.20:3000', 'http://blog.example.com']) {
      for (const owner of ['astro', 'next'] as const) expect((await headersFrom(baseUrl, owner)).get('cross-origin-opener-policy'), `${baseUrl} ${owner}`).toBeNull()
    }
  })

  it('send no HSTS for an http site', async () => {
    expect((await headersFrom('http://localhost:3000', 'astro')).get('strict-transport-security')).toBeNull()
  })

  it('allow no inline script on the reader site, and what Next needs in the admin', async () => {
    const site = (await headersFrom('http://localhost:3000', 'astro')).get('content-security-policy')!
    const admin = (await headersFrom('http://localhost:3000', 'next')).get('content-security-policy')!
    expect(site).toContain("script-src 'self';")
    expect(site).not.toContain('unsafe-inline\' ;')
    expect(site).toContain("script-src-attr 'none'")
    expect(admin).toContain("script-src 'self' 'unsafe-inline'")
    for (const csp of [site, admin]) {
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).not.toContain('unsafe-eval')
    }
  })

  it('let only the site frame the draft previews, which the admin shows beside the editor (issue 34)', async () => {
    const preview = await headersFrom('http://localhost:3000', 'astro', '/preview/7?token=1.x')
    expect(preview.get('content-security-policy')).toContain("frame-ancestors 'self'")
    expect(preview.get('content-security-policy')).toContain("script-src 'self';")
    expect(preview.get('x-frame-options')).toBe('SAMEORIGIN')
    for (const [owner, path] of [['astro', '/articles/7/-'], ['astro', '/previews'], ['next', '/preview/7'], ['next', '/admin']] as const) {
      const h = await headersFrom('http://localhost:3000', owner, path)
      expect(h.get('content-security-policy'), path).toContain("frame-ancestors 'none'")
      expect(h.get('x-frame-options'), path).toBe('DENY')
    }
  })

  it('send no referrer from the sign-in routes, whose URLs carry the code and state (issue 27, item 13)', async () => {
    for (const path of ['/login/github/callback?code=c&state=s', '/login/google', '/login/oidc/unlink']) {
      const h = await headersFrom('http://localhost:3000', 'next', path, { 'Referrer-Policy': 'no-referrer' })
      expect(h.get('referrer-policy'), path).toBe('no-referrer')
    }
    expect((await headersFrom('http://localhost:3000', 'next', '/admin')).get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect((await headersFrom('http://localhost:3000', 'astro', '/login')).get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  })
})
