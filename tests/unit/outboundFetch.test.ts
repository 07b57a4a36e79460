/**
 * The guarded outbound fetch (issue 27, item 8) against real loopback servers:
 * each private or reserved address form is refused before a connection is
 * opened, a name resolving to loopback too, a redirect to a private address
 * is caught at the hop, and the time and byte limits hold while reading.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { isPublicAddress, limitedFetch, outboundFetch, outboundFetchWithRule, type OutboundError } from '../../src/lib/outboundFetch'

type Server = { port: number; connections: number; sent: number; closed: Promise<void>; server: http.Server }

async function serve(host: string, handler: http.RequestListener): Promise<Server> {
  const server = http.createServer(handler)
  const s = { port: 0, connections: 0, sent: 0, server } as Server
  server.on('connection', () => (s.connections += 1))
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  s.port = (server.address() as AddressInfo).port
  return s
}

const stop = (s: Server | undefined) => {
  s?.server.closeAllConnections()
  return new Promise<void>((resolve) => (s ? s.server.close(() => resolve()) : resolve()))
}

let target: Server
let second: Server
let endless: Server
const endlessClosed: Array<() => void> = []

beforeAll(async () => {
  target = await serve('127.0.0.1', (_req, res) => res.end('secret internal answer'))
  // 127.0.0.2 is loopback too (127/8): the "internal" host a redirect points at.
  second = await serve('127.0.0.2', (_req, res) => res.end('second internal answer'))
  endless = await serve('127.0.0.1', (req, res) => {
    if (req.url === '/hang') return
    const chunk = Buffer.alloc(64 * 1024, 120)
    res.writeHead(200, { 'content-type': 'application/json' })
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) endless.sent += chunk.length
      if (req.url === '/drip') return
    }
    if (req.url === '/drip') {
      const timer = setInterval(() => res.write('x'), 50)
      res.on('close', () => clearInterval(timer))
      return
    }
    res.on('drain', pump)
    res.on('close', () => endlessClosed.forEach((f) => f()))
    pump()
  })
})

afterAll(async () => {
  await Promise.all([stop(target), stop(second), stop(endless)])
})

const refusedPolicy = { allowPrivate: false }
const opts = { timeoutMs: 2000, maxBytes: 1024 * 1024 }

async function refusal(url: string): Promise<OutboundError> {
  const error = (await outboundFetch(url, refusedPolicy, opts).then(
    () => undefined,
    (e: unknown) => e,
  )) as OutboundError
  expect(error, url).toBeDefined()
  return error
}

describe('the guarded fetch refuses private and reserved addresses', () => {
  it.each([
    'http://127.0.0.1:PORT/x.png',
    'https://127.0.0.1:PORT/x.png',
    'http://[::1]:PORT/',
    'http://10.0.0.1:PORT/',
    'http://172.16.0.1:PORT/',
    'http://172.31.255.254:PORT/',
    'http://192.168.1.1:PORT/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fc00::1]:PORT/',
    'http://[fd12:3456::1]:PORT/',
    'http://[fe80::1]:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://[::ffff:7f00:1]:PORT/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://0.0.0.0:PORT/',
    'http://[::]:PORT/',
    // Other spellings of 127.0.0.1 that URL parsing normalises.
    'http://2130706433:PORT/',
    'http://0x7f.1:PORT/',
    // A name resolving to loopback: refused in the lookup, before the socket opens.
    'http://localhost:PORT/',
  ])('%s', async (pattern) => {
    const before = target.connections
    const error = await refusal(pattern.replace('PORT', String(target.port)))
    expect(error.code).toBe('OUTBOUND_REFUSED')
    expect(target.connections).toBe(before)
  })

  it('refuses other schemes', async () => {
    expect((await refusal('file:///etc/passwd')).code).toBe('OUTBOUND_REFUSED')
    expect((await refusal('ftp://example.com/x')).code).toBe('OUTBOUND_REFUSED')
  })

  it('classifies public addresses as public, and nothing else', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(a), a).toBe(true)
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255', '224.0.0.1', '::1', '::', 'fc00::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::1', '2001:db8::1', 'not-an-address']) {
      expect(isPublicAddress(a), a).toBe(false)
    }
  })

  it('re-checks the address after a redirect from a public-looking host to a private one', async () => {
    const redirector = await serve('127.0.0.1', (_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.2:${second.port}/` })
      res.end()
    })
    try {
      // The redirector's address stands in for a public host; every other address gets the real classification.
      const onlyRedirector = (address: string) => address === '127.0.0.1' || isPublicAddress(address)
      const before = second.connections
      const error = (await outboundFetchWithRule(`http://127.0.0.1:${redirector.port}/`, onlyRedirector, { ...opts, maxRedirects: 3 }).catch((e) => e)) as OutboundError
      expect(error.code).toBe('OUTBOUND_REFUSED')
      expect(redirector.connections).toBeGreaterThan(0)
      expect(second.connections).toBe(before)
      // Allowed through the same hops when the policy allows private targets (development, tests).
      const allowed = await outboundFetch(`http://127.0.0.1:${redirector.port}/`, { allowPrivate: true }, { ...opts, maxRedirects: 3 })
      expect(allowed.body.toString()).toBe('second internal answer')
      // No redirect is followed unless asked for.
      const none = (await outboundFetch(`http://127.0.0.1:${redirector.port}/`, { allowPrivate: true }, opts).catch((e) => e)) as OutboundError
      expect(none.code).toBe('OUTBOUND_REDIRECTS')
    } finally {
      await stop(redirector)
    }
  })
})

describe('the limits hold while reading', () => {
  it('stops reading an endless answer at the byte cap and closes the connection', async () => {
    const closed = new Promise<void>((resolve) => endlessClosed.push(resolve))
    const started = Date.now()
    const error = (await outboundFetch(`http://127.0.0.1:${endless.port}/`, { allowPrivate: true }, { timeoutMs: 10_000, maxBytes: 256 * 1024 }).catch((e) => e)) as OutboundError
    expect(error.code).toBe('OUTBOUND_TOO_LARGE')
    await closed
    expect(Date.now() - started).toBeLessThan(5000)
    // Only what the socket buffers held beyond the cap was sent, not megabytes.
    expect(endless.sent).toBeLessThan(16 * 1024 * 1024)
    const trustedError = (await limitedFetch(`http://127.0.0.1:${endless.port}/`, { timeoutMs: 10_000, maxBytes: 64 * 1024 }).catch((e) => e)) as OutboundError
    expect(trustedError.code).toBe('OUTBOUND_TOO_LARGE')
  })

  it('gives up on a server that never answers, and on a body that drips, at the time limit', async () => {
    for (const path of ['/hang', '/drip']) {
      const started = Date.now()
      const error = (await limitedFetch(`http://127.0.0.1:${endless.port}${path}`, { timeoutMs: 500, maxBytes: 1024 * 1024 }).catch((e) => e)) as OutboundError
      expect(error.code, path).toBe('OUTBOUND_TIMEOUT')
      expect(Date.now() - started).toBeLessThan(3000)
    }
  })
})
