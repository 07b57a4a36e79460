/**
 * The share-card gate of the one-origin server (src/server/cardGate.ts, issue 28 §2), through a
 * real HTTP server: an address past its rate is refused 429 in one writeHead, and the refusal is
 * held until the address's window ends, so a client that waits for each answer asks about once a
 * second instead of once a round trip; past MAX_HELD held refusals, they are answered at once.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterEach, describe, expect, it } from 'vitest'

import { cardGate } from '../../src/server/cardGate'

let server: http.Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

async function gateServer(options: Parameters<typeof cardGate>[0]): Promise<string> {
  const gate = cardGate(options)
  server = http.createServer((req, res) => {
    void gate.admit(req, res, 'test-id').then((admitted) => admitted && res.writeHead(200).end('card'))
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/articles/1/card`
}

async function flood(url: string, count: number, headers: Record<string, string> = {}) {
  const started = performance.now()
  return Promise.all(
    Array.from({ length: count }, async () => {
      const answer = await fetch(url, { headers: { 'x-forwarded-for': '198.51.100.5', ...headers } })
      return { status: answer.status, after: performance.now() - started, headers: answer.headers, body: await answer.text() }
    }),
  )
}

describe('the share-card gate', () => {
  it('admits the rate at once and holds each refusal until the window ends, then answers 429 with Retry-After and the given headers', async () => {
    const url = await gateServer({ perSecond: 3, securityHeaders: [['X-Frame-Options', 'DENY']] })
    const answers = await flood(url, 10, { 'accept-language': 'zh-CN' })
    const admitted = answers.filter((a) => a.status === 200)
    const refused = answers.filter((a) => a.status === 429)
    expect(admitted).toHaveLength(3)
    expect(refused).toHaveLength(7)
    // Held: not before the one-second window that refused them is over (its first request started it).
    for (const answer of refused) expect(answer.after).toBeGreaterThanOrEqual(Math.max(...admitted.map((a) => a.after)))
    expect(Math.min(...refused.map((a) => a.after))).toBeGreaterThan(900)
    for (const { headers, body } of refused) {
      expect(headers.get('retry-after')).toBe('1')
      expect(headers.get('x-frame-options')).toBe('DENY')
      expect(headers.get('x-request-id')).toBe('test-id')
      expect(headers.get('cache-control')).toBe('no-store')
      expect(JSON.parse(body).errors[0].message).toContain('分享图片请求过多')
    }
    // Another address has its own window.
    expect((await fetch(url, { headers: { 'x-forwarded-for': '198.51.100.6' } })).status).toBe(200)
  })

  it('answers at once the refusals past the most it holds', async () => {
    const url = await gateServer({ perSecond: 1, maxHeld: 2 })
    const answers = await flood(url, 8)
    const refused = answers.filter((a) => a.status === 429).sort((a, b) => a.after - b.after)
    expect(refused).toHaveLength(7)
    // Five were not held: all of them answered before the two held ones.
    const [quick, held] = [refused.slice(0, 5), refused.slice(5)]
    expect(Math.max(...quick.map((a) => a.after))).toBeLessThan(Math.min(...held.map((a) => a.after)))
    expect(Math.min(...held.map((a) => a.after))).toBeGreaterThan(900)
    expect(JSON.parse(quick[0]!.body).errors[0].message).toMatch(/share-image requests/)
  })
})
