/** The one-origin server refuses a NUL in any path or query with 400 before routing (issue 26). */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { refuseNulInUrl } from '../../src/server/nulBytes'

let server: Server
let base: string

beforeAll(async () => {
  // The guard in front of a handler that answers 200, as src/server/index.ts puts it in front of Next and Astro.
  server = createServer((req, res) => {
    if (refuseNulInUrl(req, res)) return
    res.end('handled')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('refuseNulInUrl', () => {
  it.each(['/tags/%00', '/categories/%00', '/articles/1/a%00b', '/api/articles?where[title][equals]=%00', '/search?q=x%00', '/tags/%00?page=2', '/admin/collections/tags/%00'])(
    'answers 400 for %s, without handing it on',
    async (path) => {
      const response = await fetch(base + path)
      expect(response.status).toBe(400)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(await response.text()).toMatch(/NUL/)
    },
  )

  it.each(['/tags/postgres', '/search?q=%2500', '/api/articles?where[title][equals]=100%25', '/articles/100'])('hands on %s', async (path) => {
    const response = await fetch(base + path)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('handled')
  })
})
