/**
 * A real webhook receiver on loopback for the webhooks tests: verifies every
 * request with the `standardwebhooks` library (any of the secrets it knows),
 * and answers as told: ok (204), fail (503 or another status), hang (never
 * answers), slow (answers 200 after a delay).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { Webhook } from 'standardwebhooks'

export type Received = { id: string; type: string; body: any; verified: boolean; answered: number | 'hang' }
export type Mode = { kind: 'ok' } | { kind: 'fail'; status: number } | { kind: 'hang' } | { kind: 'slow'; ms: number }

export type Receiver = {
  url: string
  secrets: string[]
  mode: Mode
  received: Received[]
  /** Deliveries answered 2xx, by webhook-id: each must appear once. */
  delivered: () => Map<string, number>
  stop: () => Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const hanging = new Set<http.ServerResponse>()
  const state: Receiver = {
    url: '',
    secrets: [],
    mode: { kind: 'ok' },
    received: [],
    delivered: () => {
      const counts = new Map<string, number>()
      for (const r of state.received) if (typeof r.answered === 'number' && r.answered < 300) counts.set(r.id, (counts.get(r.id) ?? 0) + 1)
      return counts
    },
    stop: async () => {
      for (const res of hanging) res.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]))
      const verified = state.secrets.some((secret) => {
        try {
          new Webhook(secret).verify(raw, headers)
          return true
        } catch {
          return false
        }
      })
      const body = JSON.parse(raw)
      const mode = state.mode
      const entry: Received = { id: headers['webhook-id']!, type: body.type, body, verified, answered: 'hang' }
      state.received.push(entry)
      if (!verified) return answer(401)
      if (mode.kind === 'hang') return void hanging.add(res)
      if (mode.kind === 'fail') return answer(mode.status)
      if (mode.kind === 'slow') return void setTimeout(() => answer(200), mode.ms)
      answer(204)
      function answer(status: number) {
        entry.answered = status
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'thanks' : `no (${status})`)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return state
}
