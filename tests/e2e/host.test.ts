/**
 * HOST=<one address>: the server listens on that address only, and every kind
 * of page still answers (the reader site reads in-process, the admin and API
 * through Next, which is told the host), with IPv4 (127.0.0.2, a loopback
 * address other than 127.0.0.1) and IPv6 (::1, written in brackets in URLs).
 */
import net from 'node:net'
import os from 'node:os'

import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { page } from '../helpers/http'

const hasIpv6Loopback = Object.values(os.networkInterfaces()).some((list) => list?.some((a) => a.address === '::1'))
const running: RunningApp[] = []
afterAll(async () => {
  for (const app of running) {
    await app.stop()
    await app.dropDatabase()
  }
})

function refusesOn(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port })
    socket.once('connect', () => (socket.destroy(), resolve(false)))
    socket.once('error', () => resolve(true))
  })
}

describe.each([
  ['127.0.0.2', true],
  ['::1', hasIpv6Loopback],
] as const)('HOST=%s', (host, available) => {
  it.runIf(available)('listens there only, and every kind of page answers', async () => {
    const app = await startApp({ HOST: host })
    running.push(app)
    const port = Number(new URL(app.url).port)
    expect(await refusesOn('127.0.0.1', port)).toBe(true)

    const db = new pg.Client({ connectionString: app.databaseUrl })
    await db.connect()
    const { rows: [article] } = await db.query<{ id: number; slug: string }>(`select id, slug from articles where status = 'published' order by id limit 1`)
    const { rows: [category] } = await db.query<{ slug: string }>(`select slug from categories order by id limit 1`)
    await db.end()

    for (const path of [
      '/',
      `/articles/${article!.id}/${article!.slug}`,
      `/categories/${category!.slug}`,
      '/users/1',
      '/links',
      '/search?q=postgresql',
      '/rss',
      '/sitemap.xml',
      '/login',
      '/admin/login',
      '/api/articles?limit=1',
      '/api/search?q=postgresql',
      '/healthz',
    ]) {
      const response = await page(app.url, path)
      expect({ path, status: response.status }).toEqual({ path, status: 200 })
    }
    // Links in pages use BASE_URL, which the helper set to this address.
    expect((await page(app.url, '/rss')).body).toContain(`${app.url}/articles/`)
  })
})
