/**
 * Issue 9, items 2, 7 and 12 on the running app: security headers and the
 * CSP on every response (with Chromium showing no CSP violation on the reader
 * site or the admin), request body limits before the body is read, and the
 * GraphQL limits on the real /api/graphql route.
 */
import http from 'node:http'

import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { logIn } from '../helpers/http'
import { AdminLoginPage } from './pages/AdminLoginPage'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startApp({ MAX_BODY_BYTES: String(64 * 1024) }), launchBrowser()])
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

/** Records every CSP violation the page reports, and console errors that mention the policy. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = []
  await page.exposeFunction('reportCspViolation', (v: string) => violations.push(v))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportCspViolation: (v: string) => void }).reportCspViolation(`${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`),
    )
  })
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content.Security.Policy/i.test(m.text())) violations.push(m.text())
  })
  return violations
}

describe('security headers', () => {
  it.each(['/', '/login', '/rss', '/admin/login', '/api/articles', '/healthz', '/no/such/page'])('are on %s', async (path) => {
    const response = await fetch(app.url + path, { redirect: 'manual' })
    const h = response.headers
    expect(h.get('content-security-policy'), path).toMatch(/frame-ancestors 'none'/)
    expect(h.get('content-security-policy')).toMatch(/object-src 'none'/)
    expect(h.get('x-frame-options')).toBe('DENY')
    expect(h.get('x-content-type-options')).toBe('nosniff')
    expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    // BASE_URL is http here: no HSTS (tests/unit/securityHeaders.test.ts covers https).
    expect(h.get('strict-transport-security')).toBeNull()
  })

  it('allow no inline script on the reader site', async () => {
    const csp = (await fetch(app.url + '/')).headers.get('content-security-policy')!
    expect(csp).toMatch(/script-src 'self'(;|$)/)
    const html = await (await fetch(app.url + '/register')).text()
    // Every executable script is a file (JSON-LD data blocks are not executed).
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>/g)]
    expect(inline).toEqual([])
  })

  it('let the reader site work in Chromium with no CSP violation', async () => {
    const page = await browser.newPage()
    const violations = await watchViolations(page)
    for (const path of ['/', '/register', '/login', '/links']) {
      expect((await page.goto(app.url + path))?.status(), path).toBe(200)
      await page.waitForLoadState('networkidle')
    }
    const first = page.locator('a[href^="/articles/"]').first()
    await page.goto(app.url + '/')
    await Promise.all([page.waitForURL(/\/articles\//), first.click()])
    await page.waitForLoadState('networkidle')
    // The register page's script runs: refreshing the captcha changes the image.
    await page.goto(app.url + '/register')
    const image = page.locator('#captcha-image')
    if (await image.count()) {
      const before = await image.getAttribute('src')
      await page.locator('#captcha-refresh').click()
      await expect.poll(() => image.getAttribute('src')).not.toBe(before)
    }
    expect(violations).toEqual([])
    await page.close()
  })

  it('let the admin work in Chromium with no CSP violation', async () => {
    const page = await browser.newPage()
    const violations = await watchViolations(page)
    const login = new AdminLoginPage(page, app.url)
    await login.open()
    await login.logIn('owner@inkwell.test', 'inkwell-demo')
    await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/')
    await page.getByRole('link', { name: /Articles/ }).first().waitFor()
    await page.goto(`${app.url}/admin/collections/articles/create`)
    await page.locator('.markdown-editor .cm-content, .rich-text-lexical .ContentEditable__root').first().waitFor({ timeout: 90_000 })
    await page.waitForLoadState('networkidle')
    expect(violations).toEqual([])
    await page.close()
  })
})

/** Sends a request with node:http, so the body can be declared larger than what is sent, or chunked. */
function rawRequest(path: string, headers: Record<string, string>, chunks: Buffer[], { end = true } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(app.url + path, { method: 'POST', headers }, (res) => {
      let body = ''
      res.on('data', (c) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    })
    req.on('error', reject)
    for (const chunk of chunks) req.write(chunk)
    if (end) req.end()
    else req.flushHeaders() // a client sends nothing, not even headers, until the first write otherwise
  })
}

describe('request body limit (MAX_BODY_BYTES = 64 KB here)', () => {
  it('answers 413 from the declared length alone, before any body arrives', async () => {
    // Declares 10 MB and sends nothing: only an answer that does not wait for the body can arrive.
    const reply = await rawRequest('/api/replies', { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) }, [], { end: false })
    expect(reply.status).toBe(413)
    expect(JSON.parse(reply.body).errors[0].message).toMatch(/MAX_BODY_BYTES/)
  })

  it('answers 413 to a chunked body once it goes over, on the API and the reader site alike', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'a')
    for (const path of ['/api/replies', '/login']) {
      const headers = { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked', origin: app.url }
      const reply = await rawRequest(path, headers, Array(8).fill(chunk))
      expect(reply.status, path).toBe(413)
    }
  })

  it('lets a body under the limit through', async () => {
    const reply = await rawRequest('/api/graphql', { 'content-type': 'application/json' }, [Buffer.from(JSON.stringify({ query: '{ Articles(limit: 1) { totalDocs } }' }))])
    expect(reply.status).toBe(200)
  })

  it('gives uploads their own limit (UPLOAD_MAX_BYTES), not the JSON one', async () => {
    const { token } = await logIn(app.url, 'author@inkwell.test')
    const form = new FormData()
    form.set('file', new Blob([Buffer.alloc(200 * 1024, 1)], { type: 'image/png' }), 'big.png')
    const reply = await fetch(`${app.url}/api/media`, { method: 'POST', body: form, headers: { authorization: `JWT ${token}` } })
    // Over 64 KB, yet read: refused by the file type check (not a PNG), not by size.
    expect(reply.status).not.toBe(413)
    expect(reply.status).toBeLessThan(500)
  })
})

describe('GraphQL limits on /api/graphql', () => {
  it('refuses a deeply nested query with an error naming the limit', async () => {
    let selection = 'id'
    for (let i = 0; i < 4; i++) selection = `author { avatar { owner { ${selection} } } }`
    const response = await fetch(`${app.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ Articles { docs { ${selection} } } }` }),
    })
    const body = await response.json()
    expect(body.data ?? null).toBeNull()
    expect(body.errors[0].message).toMatch(/too deep.*GRAPHQL_MAX_DEPTH/)
  })
})
