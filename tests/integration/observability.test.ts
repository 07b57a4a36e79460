/**
 * Issue 32 §3 on Payload's real REST pipeline behind the one-origin server's
 * observability layer (src/server/observability.ts) on a real HTTP port:
 * request ids, one JSON line per request and per job, /metrics and its
 * access rule, /readyz. Every byte the process writes (stdout, stderr, the
 * JSON log) is captured while requests carry a password, session cookies,
 * JWTs, a reset token and a mail's body, and none of those is in it.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { handleEndpoints } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { queueOf } from '../../jobs/queue'
import { getEnv } from '../../src/lib/env'
import { setLogSink } from '../../src/lib/jsonLog'
import { operations, routeKind, type Operations } from '../../src/server/observability'
import { writeArticle } from '../helpers/articles'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { startInbox, smtpEnv, type Inbox } from '../helpers/smtp'
import { createCast, PASSWORD } from '../helpers/users'
import { waitUntil } from '../helpers/waitUntil'

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789'
let t: TestPayload
let inbox: Inbox
let server: http.Server
let base: string
let ops: Operations
let articleId: number
let destroyed = false
const captured: string[] = []
const restore: (() => void)[] = []

function capture(stream: NodeJS.WriteStream) {
  const write = stream.write.bind(stream)
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    captured.push(String(chunk))
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest)
  }) as typeof stream.write
  restore.push(() => (stream.write = write))
}

beforeAll(async () => {
  capture(process.stdout)
  capture(process.stderr)
  const previous = setLogSink((line) => void captured.push(line))
  restore.push(() => setLogSink(previous))
  inbox = await startInbox()
  process.env.TEST_LOG_LEVEL = 'info' // the application's own log lines are captured too
  t = await createTestPayload({ ...smtpEnv(inbox), QUEUE_CONNECTION: 'sync', SYNC_RETRY_SCALE: '0.05', METRICS_TOKEN })
  const cast = await createCast(t.payload)
  articleId = (await writeArticle(t.payload, cast.author, 'Observed')).id
  ops = operations(getEnv())
  server = http.createServer((req, res) => {
    ops.observe(req, res)
    if (ops.answers(req, res, (error) => res.destroy(error as Error))) return
    void toPayload(req, res).catch((error) => res.destroy(error))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  expect((await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`)).status).toBe(503) // Payload not announced yet: starting
  ops.started(t.payload, undefined)
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}, 120_000)

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  if (!destroyed) await t?.destroy() // (the last test stops it itself)
  await inbox?.stop()
  for (const undo of restore.reverse()) undo()
})

/** Payload's REST handling, as the one-origin server hands /api to it. */
async function toPayload(req: http.IncomingMessage, res: http.ServerResponse) {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
  const body = chunks.length ? Buffer.concat(chunks) : undefined
  const response = await handleEndpoints({
    config: t.payload.config,
    request: new Request(`http://localhost:3000${req.url}`, { method: req.method, headers, body }),
    payloadInstanceCacheKey: t.databaseName,
  })
  const out: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => (out[name] = value))
  const cookies = response.headers.getSetCookie()
  if (cookies.length) out['set-cookie'] = cookies
  res.writeHead(response.status, out)
  res.end(Buffer.from(await response.arrayBuffer()))
}

const requestLines = () =>
  captured
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{"time"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)

describe('request ids and the request log (issue 32 §3)', () => {
  it('echoes a sane incoming x-request-id, replaces an odd one, makes one when absent; one JSON line per request', async () => {
    const kept = await fetch(`${base}/api/articles?limit=1`, { headers: { 'x-request-id': 'lb-7f3a.42' } })
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.42')
    const odd = await fetch(`${base}/api/articles?limit=1`, { headers: { 'x-request-id': 'x'.repeat(300) } })
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const none = await fetch(`${base}/healthz-nope`)
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const line = await waitUntil(async () => requestLines().find((l) => l.requestId === 'lb-7f3a.42'), { what: 'the request line' })
    expect(line).toMatchObject({ level: 'info', msg: 'request', method: 'GET', route: 'api', status: 200, requestId: 'lb-7f3a.42' })
    expect(typeof line.durationMs).toBe('number')
    expect(Object.keys(line).sort()).toEqual(['durationMs', 'level', 'method', 'msg', 'requestId', 'route', 'status', 'time'])
  })

  it('labels routes by kind, never by path', () => {
    expect(routeKind('/articles/12/a-title?x=1')).toBe('article')
    expect(routeKind('/api/users/reset-password/abc')).toBe('api')
    expect(routeKind('/api/graphql')).toBe('graphql')
    expect(routeKind('/admin/collections/users')).toBe('admin')
    expect(routeKind('/login/github/callback?code=s3cret')).toBe('oauth')
    expect(routeKind('/favicon.svg', (p) => p === '/favicon.svg')).toBe('static')
    expect(routeKind('/some/unknown/page')).toBe('page')
  })

  it('writes no password, cookie, token or mail body in any line of a run with credentials', async () => {
    // Sign in with a password: the reply sets the session cookie and carries the JWT.
    const login = await fetch(`${base}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ email: 'reader@example.test', password: PASSWORD }),
    })
    expect(login.status).toBe(200)
    const { token } = (await login.json()) as { token: string }
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]!).join('; ')
    expect(cookie).toContain('payload-token=')
    // The cookie, a JWT header, the token as a query parameter, a wrong password.
    expect((await fetch(`${base}/api/users/me`, { headers: { cookie } })).status).toBe(200)
    expect((await fetch(`${base}/api/users/me`, { headers: { authorization: `JWT ${token}` } })).status).toBe(200)
    await fetch(`${base}/api/users/me?access_token=${token}`)
    await fetch(`${base}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ email: 'reader@example.test', password: 'wrong-password-Zq81x' }),
    })
    // A reply whose notification mail is sent (sync mode: a job, logged as one line).
    const body = `Observed reply body ${Date.now()} kept out of logs`
    const reply = await fetch(`${base}/api/replies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, origin: 'http://localhost:3000' },
      body: JSON.stringify({ article: articleId, body }),
    })
    expect(reply.status).toBe(201)
    const mail = await waitUntil(async () => inbox.messages.find((m) => m.text?.includes(body)), { what: 'the notification mail' })
    // A password reset: its mail carries a token.
    await fetch(`${base}/api/accounts/password/forgot`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ email: 'reader@example.test' }),
    })
    const resetMail = await waitUntil(async () => inbox.messages.find((m) => /reset/i.test(m.subject ?? '') || /reset/i.test(m.text ?? '')), { what: 'the reset mail' })
    const resetToken = /token=([A-Za-z0-9._-]+)/.exec(resetMail.text ?? '')?.[1] ?? /\/([a-f0-9]{20,})/.exec(resetMail.text ?? '')?.[1]
    expect(resetToken).toBeTruthy()
    await waitUntil(async () => requestLines().some((l) => l.msg === 'job' && l.job === 'notify-article-author' && l.outcome === 'completed'), { what: 'the job line' })

    const everything = captured.join('')
    // Payload's own logger (pino) is in the capture too: the failed sign-in was logged there.
    expect(everything).toContain('"name":"payload"')
    const cookieValue = cookie.split('=').slice(1).join('=')
    for (const secret of [PASSWORD, 'wrong-password-Zq81x', token, cookieValue, resetToken!, body, mail.text!.trim().split('\n')[0]!]) {
      expect(everything).not.toContain(secret)
    }
    // The lines are there: one per request, and the job's.
    expect(requestLines().filter((l) => l.msg === 'request' && l.route === 'api').length).toBeGreaterThanOrEqual(7)
    expect(requestLines().find((l) => l.msg === 'job' && l.job === 'notify-article-author')).toMatchObject({ outcome: 'completed', attempt: 1 })
  })
})

describe('/metrics (issue 32 §3)', () => {
  it('answers loopback without a token, the token holder from anywhere, and nobody else', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(200)
    // Through a proxy (a forwarding header), loopback is not enough.
    expect((await fetch(`${base}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(403)
    expect((await fetch(`${base}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9', authorization: 'Bearer wrong-token-0123456789abcdef' } })).status).toBe(403)
    const authorized = await fetch(`${base}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${METRICS_TOKEN}` } })
    expect(authorized.status).toBe(200)
    expect(authorized.headers.get('content-type')).toContain('text/plain')
  })

  it('reports requests by route kind, latency, jobs, mails, the pool, the render cache, the queue, memory and event-loop lag', async () => {
    const text = await (await fetch(`${base}/metrics`)).text()
    expect(text).toMatch(/inkwell_http_requests_total\{route="api",method="GET",status="2xx"\} \d+/)
    expect(text).toMatch(/inkwell_http_request_duration_seconds_bucket\{le="0.1",route="api"\} \d+/)
    expect(text).toMatch(/inkwell_jobs_total\{job="notify-article-author",outcome="completed"\} [1-9]/)
    expect(text).toMatch(/inkwell_mails_total\{outcome="sent"\} [1-9]/)
    expect(text).toMatch(/inkwell_db_pool_connections\{state="total"\} \d+/)
    expect(text).toContain('# TYPE inkwell_queue_jobs gauge')
    expect(text).toContain('# TYPE inkwell_render_cache_hits_total counter')
    expect(text).toContain('# TYPE inkwell_view_batches_total counter')
    expect(text).toMatch(/process_resident_memory_bytes \d+/)
    expect(text).toMatch(/nodejs_eventloop_lag_seconds [\d.e-]+/)
    // No raw path ever becomes a label.
    expect(text).not.toContain('/api/')
  })
})

describe('/readyz (issue 32 §3)', () => {
  it('is 200 with the database, migrations and queue checked (503 before Payload is up: beforeAll), 503 again once draining', async () => {
    const ready = await fetch(`${base}/readyz`)
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: true, migrations: true, queue: true } })
    expect(ready.status).toBe(200)
    expect(ops.draining).toBe(false)
    ops.drain()
    // The web server's door (src/server/index.ts) answers no kept page from now on: the usual way closes each connection.
    expect(ops.draining).toBe(true)
    const draining = await fetch(`${base}/readyz`)
    expect(draining.status).toBe(503)
    expect(draining.headers.get('retry-after')).toBe('5')
    expect(await draining.json()).toMatchObject({ status: 'stopping' })
    expect((await fetch(`${base}/healthz-nope`)).headers.get('connection')).toBe('close')
  })
})

describe('sync mode at shutdown (issue 32 §5)', () => {
  it('logs each job still waiting for a retry when the process stops, with the command that runs it again', async () => {
    await inbox.stop()
    const retried = new Promise((resolve) => queueOf(t.payload).events.once('retry', resolve))
    const created = await t.payload.create({
      collection: 'replies',
      data: { article: articleId, body: 'Waiting for a retry at shutdown' },
      overrideAccess: true,
      user: (await t.payload.find({ collection: 'users', where: { email: { equals: 'reader@example.test' } } })).docs[0],
    })
    await retried
    destroyed = true
    await t.destroy() // the jobs plugin drains for up to 20 s, then names what it gives up
    // Payload's logger writes JSON, so the command's quotes are escaped in the line.
    const line = captured.join('').split('\n').find((l) => l.includes('sync-mode job not retried'))
    expect(JSON.parse(line!).msg).toContain(`npm run blog -- job notify-article-author '{"replyId":${created.id}}'`)
    expect(captured.join('')).not.toContain('The queue is not running')
  }, 60_000)
})
