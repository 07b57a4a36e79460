import type { IncomingMessage } from 'node:http'

import { describe, expect, it } from 'vitest'

import { plainHttpFetchSite } from '../../src/server/plainHttpFetchSite'

const request = (method: string, headers: Record<string, string>) => ({ method, headers: { ...headers } }) as unknown as IncomingMessage

describe('plainHttpFetchSite', () => {
  it('does nothing where browsers send Fetch Metadata themselves (https, localhost, loopback)', () => {
    for (const base of ['https://blog.example', 'http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'http://app.localhost']) {
      expect(plainHttpFetchSite(base)).toBeUndefined()
    }
  })

  it('marks a GET or HEAD to the plain-HTTP base host with neither Origin nor Sec-Fetch-Site as same-origin', () => {
    const mark = plainHttpFetchSite('http://inkwell.test:4000')!
    for (const method of ['GET', 'HEAD']) {
      const req = request(method, { host: 'Inkwell.test:4000', cookie: 'payload-token=x' })
      mark(req)
      expect(req.headers['sec-fetch-site']).toBe('same-origin')
    }
  })

  it('leaves writes, requests with Origin or Fetch Metadata, and other hosts alone', () => {
    const mark = plainHttpFetchSite('http://inkwell.test:4000')!
    const cases = [
      request('POST', { host: 'inkwell.test:4000' }),
      request('GET', { host: 'inkwell.test:4000', origin: 'http://evil.example' }),
      request('GET', { host: 'inkwell.test:4000', 'sec-fetch-site': 'cross-site' }),
      request('GET', { host: 'other.test:4000' }),
      request('GET', { host: 'inkwell.test:4001' }),
    ]
    for (const req of cases) {
      const before = req.headers['sec-fetch-site']
      mark(req)
      expect(req.headers['sec-fetch-site']).toBe(before)
    }
  })
})
