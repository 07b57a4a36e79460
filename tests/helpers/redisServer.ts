/**
 * A Redis server of the test's own, on a free port, that the test may kill,
 * restart and pause. The machine's shared Redis is never stopped or paused.
 * No RDB snapshots; an append-only file fsynced on every write in a temporary
 * directory, so a killed and restarted server still holds what it acknowledged
 * (as a production Redis holding counters would be configured).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { Redis } from 'ioredis'

export type OwnRedis = {
  url: string
  port: number
  /** A plain client of the test (offline queue on: it waits for the server). */
  client: Redis
  stop(): Promise<void>
  start(): Promise<void>
  /** CLIENT PAUSE ALL for `ms` (commands of every client wait, connections stay open). */
  pause(ms: number): Promise<void>
  unpause(): Promise<void>
  close(): Promise<void>
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-redis-'))

  async function start() {
    const next = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
    await new Promise<void>((resolve, reject) => {
      let out = ''
      next.stdout!.on('data', (c) => {
        out += c
        if (out.includes('Ready to accept connections')) resolve()
      })
      next.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)))
    })
    child = next
  }

  async function stop() {
    const running = child
    if (!running || running.exitCode !== null) return
    child = undefined
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve())
      running.kill('SIGKILL')
    })
  }

  await start()
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: false, maxRetriesPerRequest: null, retryStrategy: () => 100 })
  client.on('error', () => {})
  // CLIENT UNPAUSE must not wait in the pause itself: a connection of its own.
  const admin = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: null, retryStrategy: () => 100 })
  admin.on('error', () => {})
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    client,
    start,
    stop,
    pause: async (ms) => void (await admin.call('CLIENT', 'PAUSE', String(ms), 'ALL')),
    unpause: async () => void (await admin.call('CLIENT', 'UNPAUSE')),
    close: async () => {
      client.disconnect()
      admin.disconnect()
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
