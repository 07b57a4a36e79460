/**
 * Issue 27 item 4: every answer to a request carrying a session is
 * `private, no-store`, however its handler writes its headers, unless the
 * handler declared it public (build files, media). Through a real Node HTTP
 * server, as the one-origin server wraps its responses.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { carriesSession, privateCacheControl, withPrivateCaching } from '../../src/server/privateCaching'
import { withDefaultCacheControl } from '../../src/server/staticCaching'

const handlers: Record<string, (res: ServerResponse) => void> = {
  // Astro's node adapter: status and an object of headers at once.
  '/profile': (res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>you@example.test</p>'),
  // Headers set one by one, then the body (Node writes the head implicitly).
  '/api/users/me': (res) => {
    res.setHeader('content-type', 'application/json')
    res.end('{}')
  },
  // A page that said no-store only, in a flat header list.
  '/profile/tokens': (res) => res.writeHead(200, 'OK', ['Content-Type', 'text/html', 'Cache-Control', 'no-store']).end('x'),
  // Declared the same for everyone.
  '/_next/static/chunk.js': (res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end('1'),
  '/api/media/file/a.png': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end('png'),
}

let server: http.Server
let base: string

beforeAll(async () => {
  server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url!.split('?')[0]!
    withPrivateCaching(req, res)
    withDefaultCacheControl(res, path)
    handlers[path]!(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const cacheControl = async (path: string, headers: Record<string, string> = {}) => (await fetch(base + path, { headers })).headers.get('cache-control')

describe('answers that depend on the session', () => {
  it.each(['/profile', '/api/users/me', '/profile/tokens'])('%s: private, no-store with a session cookie, a switch cookie or a token', async (path) => {
    expect(await cacheControl(path, { cookie: 'theme=dark; payload-token=abc' })).toBe('private, no-store')
    expect(await cacheControl(path, { cookie: 'inkwell-switch=abc' })).toBe('private, no-store')
    expect(await cacheControl(path, { authorization: 'Bearer iwt_x' })).toBe('private, no-store')
  })

  it('leaves anonymous answers as their handler made them', async () => {
    expect(await cacheControl('/profile')).toBeNull()
    expect(await cacheControl('/profile/tokens')).toBe('no-store')
    expect(await cacheControl('/profile', { cookie: 'my-payload-token=abc' })).toBeNull()
  })

  it('keeps what is public for everyone (build files, media), session or not', async () => {
    expect(await cacheControl('/_next/static/chunk.js', { cookie: 'payload-token=abc' })).toBe('public, max-age=31536000, immutable')
    expect(await cacheControl('/api/media/file/a.png', { cookie: 'payload-token=abc' })).toBe('public, max-age=86400, must-revalidate')
  })

  it('reads the rule from the request and the given value', () => {
    expect(carriesSession({ headers: { cookie: 'payload-token=x' } })).toBe(true)
    expect(carriesSession({ headers: {} })).toBe(false)
    expect(privateCacheControl(undefined)).toBe('private, no-store')
    expect(privateCacheControl('max-age=60')).toBe('private, no-store')
    expect(privateCacheControl('public, max-age=60')).toBe('public, max-age=60')
    expect(privateCacheControl('no-public-thing')).toBe('private, no-store')
  })
})
