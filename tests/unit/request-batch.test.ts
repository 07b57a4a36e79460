/**
 * A finished request's metrics and log line are made in batches (src/server/observability.ts,
 * issue 28 §1: the same work in one loop costs the cached hit less than in each response's close
 * listener). Through a real HTTP server: a scrape of /metrics counts every request that ended
 * before it, each line keeps the time its request ended, and a process that exits right after
 * answering still writes the line.
 */
import { spawnSync } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { setLogSink } from '../../src/lib/jsonLog'
import { operations } from '../../src/server/observability'

const lines: string[] = []
let restoreSink: () => void
let server: http.Server
let base: string

beforeAll(async () => {
  const previous = setLogSink((line) => void lines.push(line))
  restoreSink = () => setLogSink(previous)
  const ops = operations({ metricsToken: undefined, dbPush: false })
  server = http.createServer((req, res) => {
    ops.observe(req, res)
    if (ops.answers(req, res, (error) => res.destroy(error as Error))) return
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  restoreSink()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

const requestLine = (id: string) => lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.requestId === id)

describe('batched request metrics and log lines', () => {
  it('counts, at a scrape, every request that ended before it', async () => {
    const counted = async () => {
      const text = await (await fetch(`${base}/metrics`)).text()
      return Number(/^inkwell_http_requests_total\{route="api",method="GET",status="2xx"\} (\d+)$/m.exec(text)?.[1] ?? 0)
    }
    const before = await counted()
    for (let i = 0; i < 5; i++) expect(await (await fetch(`${base}/api/batch-${i}`)).text()).toBe('ok')
    // Asked at once: the batch (due BATCH_MS later) is made before the registry is read.
    expect(await counted()).toBe(before + 5)
  })

  it('writes each line with the time its request ended, not the time its batch was made', async () => {
    // The scrape above was itself a request: let its batch go first, so this one starts a batch of its own.
    await new Promise((resolve) => setTimeout(resolve, 150))
    const answer = await fetch(`${base}/articles/1/a-title`, { headers: { 'x-request-id': 'batch-time-1' } })
    await answer.text()
    const received = Date.now()
    expect(requestLine('batch-time-1')).toBeUndefined() // not yet: it waits for its batch
    await new Promise((resolve) => setTimeout(resolve, 150))
    const line = requestLine('batch-time-1')
    expect(line).toMatchObject({ msg: 'request', route: 'article', status: 200, requestId: 'batch-time-1' })
    expect(Date.parse(line!.time as string)).toBeLessThanOrEqual(received)
  })

  it('writes the lines still waiting when the process exits right after answering', () => {
    const child = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'tests/fixtures/exit-after-answer.ts'], { encoding: 'utf8', timeout: 60_000 })
    expect(child.status).toBe(0)
    const line = child.stdout.split('\n').find((l) => l.includes('"exits-at-once"'))
    expect(line && JSON.parse(line)).toMatchObject({ msg: 'request', route: 'page', status: 200, requestId: 'exits-at-once' })
  })
})
