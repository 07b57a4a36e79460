/**
 * The queue console's status guard (src/server/guardedAdminViews.ts), on a
 * real Payload: the same rule as the view (queueConsoleAccess), the same user
 * Payload would see for the request's headers. A tiny server stands in for the
 * one-origin server: the guard first, then "the view" when it lets a request by.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { guardAdminView, isGuardedAdminView } from '../../src/server/guardedAdminViews'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD, roleId } from '../helpers/users'

let t: TestPayload
let server: http.Server
let base: string
const cookies: Record<string, string> = {}
const EMAILS = { owner: 'owner@example.test', admin: 'admin@example.test', author: 'author@example.test', reader: 'reader@example.test' }
/** What a browser's navigation sends; without Origin or Sec-Fetch-Site, Payload ignores the session cookie (CSRF). */
const NAVIGATION = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' }

beforeAll(async () => {
  t = await createTestPayload()
  await createCast(t.payload)
  for (const [who, email] of Object.entries(EMAILS)) {
    const { token } = await t.payload.login({ collection: 'users', data: { email, password: PASSWORD } })
    cookies[who] = `payload-token=${token}`
  }
  server = http.createServer((req, res) => {
    const pathname = req.url!.split('?')[0]!
    if (!isGuardedAdminView(t.payload, req.method, pathname)) return void res.writeHead(200).end('not guarded')
    void guardAdminView(t.payload, req, res).then((answered) => answered || res.writeHead(200).end('Jobs by state'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server?.close()
  await t?.destroy()
})

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(base + path, { method, headers, redirect: 'manual' })

describe('queue console guard', () => {
  it('guards only GET and HEAD of the console path (slash or encoding variants included)', () => {
    for (const path of ['/admin/queues', '/admin/queues/', '/admin/%71ueues']) expect(isGuardedAdminView(t.payload, 'GET', path), path).toBe(true)
    expect(isGuardedAdminView(t.payload, 'HEAD', '/admin/queues')).toBe(true)
    expect(isGuardedAdminView(t.payload, 'POST', '/admin/queues')).toBe(false)
    for (const path of ['/admin', '/admin/queuesx', '/admin/queues/x', '/queues', '/api/queues', '/admin/%E0%A4%A']) {
      expect(isGuardedAdminView(t.payload, 'GET', path), path).toBe(false)
    }
  })

  it('lets the site owner through to the view (cookie on a navigation, or a JWT header)', async () => {
    expect((await get('/admin/queues', { cookie: cookies.owner!, ...NAVIGATION })).status).toBe(200)
    const token = cookies.owner!.split('=')[1]!
    expect((await get('/admin/queues?x=1', { authorization: `JWT ${token}` })).status).toBe(200)
  })

  it('answers 403, no-store, with a page naming the permission, to signed-in users without queue.monitor', async () => {
    for (const who of ['admin', 'author', 'reader'] as const) {
      const response = await get('/admin/queues', { cookie: cookies[who]!, ...NAVIGATION })
      expect(response.status, who).toBe(403)
      expect(response.headers.get('cache-control')).toBe('no-store')
      const body = await response.text()
      expect(body).toContain('403 — not allowed')
      expect(body).toContain('queue.monitor')
      expect(body).not.toContain('Jobs by state')
    }
    const head = await get('/admin/queues', { cookie: cookies.reader!, ...NAVIGATION }, 'HEAD')
    expect(head.status).toBe(403)
  })

  it('sends a visitor who is not signed in (or whose token is bad) to the admin login, coming back afterwards', async () => {
    for (const headers of [NAVIGATION, { cookie: 'payload-token=forged', ...NAVIGATION }]) {
      const response = await get('/admin/queues?tab=failed', headers)
      expect(response.status).toBe(307)
      expect(response.headers.get('location')).toBe(`/admin/login?redirect=${encodeURIComponent('/admin/queues?tab=failed')}`)
      expect(response.headers.get('cache-control')).toBe('no-store')
    }
  })

  it("treats the owner's bare cookie (no Origin, no Sec-Fetch-Site) as Payload does: not signed in (the reverted guard's test sent this)", async () => {
    expect((await get('/admin/queues', { cookie: cookies.owner! })).status).toBe(307)
  })

  it('follows the data: a role given queue.monitor opens the console to its users on their next request', async () => {
    const reader = await roleId(t.payload, 'reader')
    const role = await t.payload.findByID({ collection: 'roles', id: reader, depth: 0 })
    const monitor = (await t.payload.find({ collection: 'permissions', where: { slug: { equals: 'queue.monitor' } }, limit: 1 })).docs[0]!
    await t.payload.update({ collection: 'roles', id: reader, data: { permissions: [...((role.permissions ?? []) as number[]), monitor.id] } })
    expect((await get('/admin/queues', { cookie: cookies.reader!, ...NAVIGATION })).status).toBe(200)
  })
})
