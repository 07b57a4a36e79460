/**
 * Kept share-card answers (src/plugins/content/keptCards.ts, issue 28 §2): what the card
 * endpoint answered an anonymous reader, answered again by the one-origin server before the
 * framework, through a real HTTP server; dropped when what it shows is announced changed.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { invalidateLocally } from '../../src/lib/cacheBus'
import { answerKeptCard, keepCardAnswer, keptCardsGeneration, type KeptCard } from '../../src/plugins/content/keptCards'

let server: http.Server
let base: string

beforeAll(async () => {
  // What src/server/index.ts does for an admitted card request: the kept answer, else the endpoint (here: 404).
  server = http.createServer((req, res) => {
    if (answerKeptCard(req, res, { 'X-Frame-Options': 'DENY', 'x-request-id': 'test-id' })) return
    res.writeHead(404, { 'x-answered-by': 'endpoint' }).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => invalidateLocally(['*']))

function card(articleId: number, authorId: number, overrides: Partial<KeptCard['options']> = {}): KeptCard {
  const options = { width: 800, theme: 'light' as const, type: 'image/png' as const, ...overrides }
  return {
    articleId,
    authorId,
    options,
    headers: { 'Content-Type': options.type, ETag: `"${articleId}-${options.width}-${options.theme}"`, Vary: 'Accept', 'Cache-Control': 'public, max-age=3600' },
    image: Buffer.from(`image of ${articleId} at ${options.width}`),
  }
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers: { accept: 'image/png', ...headers } })

describe('kept share cards', () => {
  it('answers a kept card in one writeHead: its bytes, its headers, the extra ones, any width that snaps to it', async () => {
    keepCardAnswer(card(5, 9), keptCardsGeneration())
    for (const path of ['/api/articles/5/card?width=800', '/api/articles/5/card?width=790&theme=light&utm_source=x', '/api/articles/5/card?width=700']) {
      const answer = await get(path)
      expect(answer.status, path).toBe(200)
      expect(await answer.text()).toBe('image of 5 at 800')
      expect(Object.fromEntries(answer.headers)).toMatchObject({
        'content-type': 'image/png',
        etag: '"5-800-light"',
        'cache-control': 'public, max-age=3600',
        'content-length': String('image of 5 at 800'.length),
        'x-card-width': '800',
        'x-card-drawn': 'kept',
        'x-cache': 'HIT',
        'x-frame-options': 'DENY',
        'x-request-id': 'test-id',
      })
    }
    const notModified = await get('/api/articles/5/card?width=800', { 'if-none-match': '"other", "5-800-light"' })
    expect(notModified.status).toBe(304)
    expect(notModified.headers.get('etag')).toBe('"5-800-light"')
  })

  it('leaves to the endpoint what is not kept or not valid: another size, theme, type or article, a bad width, a POST, an unacceptable type', async () => {
    keepCardAnswer(card(5, 9), keptCardsGeneration())
    const toEndpoint = [
      get('/api/articles/5/card?width=1200'),
      get('/api/articles/5/card?width=800&theme=dark'),
      get('/api/articles/5/card?width=800', { accept: 'image/webp' }),
      get('/api/articles/6/card?width=800'),
      get('/api/articles/5/card?width=huge'),
      get('/api/articles/5/card?width=800', { accept: 'application/json' }),
      get('/api/articles/5/cardx?width=800'),
      fetch(`${base}/api/articles/5/card?width=800`, { method: 'POST', headers: { accept: 'image/png' } }),
    ]
    for (const answer of await Promise.all(toEndpoint)) expect(answer.headers.get('x-answered-by'), answer.url).toBe('endpoint')
  })

  it('drops the cards of an article, of an author, or all of them when what they show is announced changed', async () => {
    const keep = () => {
      for (const kept of [card(5, 9), card(5, 9, { theme: 'dark' }), card(6, 9), card(7, 10)]) keepCardAnswer(kept, keptCardsGeneration())
    }
    const kept = async () => {
      const paths = ['/api/articles/5/card?width=800', '/api/articles/5/card?width=800&theme=dark', '/api/articles/6/card?width=800', '/api/articles/7/card?width=800']
      return Promise.all(paths.map(async (path) => (await get(path)).status === 200))
    }
    keep()
    invalidateLocally(['article:5'])
    expect(await kept()).toEqual([false, false, true, true])
    keep()
    invalidateLocally(['user:9'])
    expect(await kept()).toEqual([false, false, false, true])
    for (const tag of ['settings', 'categories', '*']) {
      keep()
      invalidateLocally([tag])
      expect(await kept(), tag).toEqual([false, false, false, false])
    }
    keep()
    invalidateLocally(['tags', 'list', 'article:8', 'user:11'])
    expect(await kept()).toEqual([true, true, true, true])
  })

  it('does not keep an answer drawn from what was read before an announcement', async () => {
    const before = keptCardsGeneration()
    invalidateLocally(['article:99'])
    keepCardAnswer(card(5, 9), before)
    expect((await get('/api/articles/5/card?width=800')).status).toBe(404)
  })
})
