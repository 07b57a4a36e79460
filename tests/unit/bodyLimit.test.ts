/** Which body limit applies to which request (issue 9, item 2); the e2e security test checks the 413s. */
import type { IncomingMessage } from 'node:http'

import { describe, expect, it } from 'vitest'

import { bodyLimitFor } from '../../src/server/bodyLimit'

const limits = { maxBodyBytes: 1024 * 1024, uploadMaxBytes: 10 * 1024 * 1024 }
const request = (url: string, type = 'application/json') => ({ url, headers: { 'content-type': type } }) as unknown as IncomingMessage
const upload = limits.uploadMaxBytes + 64 * 1024

describe('bodyLimitFor', () => {
  it('gives JSON and form bodies MAX_BODY_BYTES everywhere but articles and the admin', () => {
    for (const url of ['/api/replies', '/api/users/login', '/api/graphql', '/login', '/register', '/api/media']) {
      expect(bodyLimitFor(request(url), limits), url).toBe(limits.maxBodyBytes)
      expect(bodyLimitFor(request(url, 'application/x-www-form-urlencoded'), limits), url).toBe(limits.maxBodyBytes)
    }
  })

  it('gives multipart uploads to media and avatars the upload limit, and nothing else', () => {
    for (const url of ['/api/media', '/api/media/12?depth=0', '/api/accounts/avatar']) {
      expect(bodyLimitFor(request(url, 'multipart/form-data; boundary=x'), limits), url).toBe(upload)
    }
    for (const url of ['/api/replies', '/api/mediabank', '/register']) {
      expect(bodyLimitFor(request(url, 'multipart/form-data; boundary=x'), limits), url).toBe(limits.maxBodyBytes)
    }
  })

  it('gives article writes and the admin the upload limit (articles are large by design)', () => {
    for (const url of ['/api/articles', '/api/articles/3?depth=0', '/admin', '/admin/collections/articles/3']) {
      expect(bodyLimitFor(request(url), limits), url).toBe(upload)
    }
    expect(bodyLimitFor(request('/api/articlesx'), limits)).toBe(limits.maxBodyBytes)
  })
})

describe('enforceBodyLimit on a real Node server', () => {
  it('answers 413 from a declared length alone, and to a chunked body once it goes over', async () => {
    const http = await import('node:http')
    const { enforceBodyLimit } = await import('../../src/server/bodyLimit')
    const small = { maxBodyBytes: 1024, uploadMaxBytes: 4096 }
    const server = http.createServer((req, res) => {
      if (enforceBodyLimit(req, res, small)) return
      let size = 0
      req.on('data', (c: Buffer) => (size += c.length))
      req.on('end', () => res.end(`read ${size}`))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    const send = (headers: Record<string, string>, chunks: Buffer[], end: boolean) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: '/api/replies', method: 'POST', headers }, (res) => {
          let body = ''
          res.on('data', (c) => (body += c))
          res.on('end', () => resolve({ status: res.statusCode!, body }))
        })
        req.on('error', reject)
        for (const c of chunks) req.write(c)
        if (end) req.end()
        else req.flushHeaders()
      })
    try {
      const declared = await send({ 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) }, [], false)
      expect(declared.status).toBe(413)
      expect(declared.body).toMatch(/MAX_BODY_BYTES/)
      const chunked = await send({ 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, Array(4).fill(Buffer.alloc(512, 'a')), true)
      expect(chunked.status).toBe(413)
      const fine = await send({ 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, [Buffer.alloc(512, 'a')], true)
      expect(fine).toEqual({ status: 200, body: 'read 512' })
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
