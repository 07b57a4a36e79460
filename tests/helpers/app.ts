/**
 * Runs Inkwell the README's way (`npm start`) on a free port against an
 * empty database of its own, and stops it afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { inject } from 'vitest'

import { TRUST_TEST_READERS_SQL } from './moderation'
import { adminQuery } from './postgres'
import { waitUntil } from './waitUntil'

/** Every process of a process group, as its command line (argv), from /proc. */
function groupCommandLines(pgid: number): string[][] {
  const lines: string[][] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // The group id is the fifth field of stat, after the name in parentheses (which may hold spaces).
      const group = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[2])
      if (group === pgid) lines.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean))
    } catch {
      // gone between the listing and the read
    }
  }
  return lines
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

export type RunningApp = {
  url: string
  databaseUrl: string
  output: () => string
  /** SIGTERM (a clean shutdown), then drop the database unless told to keep it. */
  stop: (options?: { keepDatabase?: boolean }) => Promise<void>
  dropDatabase: () => Promise<void>
  /** The command lines of the processes `npm start` runs (its process group), read from /proc. */
  processes: () => string[][]
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Where a server listening on HOST is reached: that one address, or loopback when it listens on all. */
function reachableHost(host: string | undefined): string {
  if (!host || host === '0.0.0.0' || host === '::') return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

/**
 * `env` overrides the defaults (PORT included: `url` follows it).
 * `shareDatabase`: run on another app's database (several web processes on one database) instead of an empty one of its own. */
export async function startApp(
  env: Record<string, string> = {},
  { shareDatabase, moderationDefaults }: { shareDatabase?: RunningApp; moderationDefaults?: boolean } = {},
): Promise<RunningApp> {
  const { adminUrl, urlPattern } = inject('database')
  const name = shareDatabase ? new URL(shareDatabase.databaseUrl).pathname.slice(1) : `inkwell_test_${process.pid}_e2e_${Date.now().toString(36)}`
  if (!shareDatabase) await adminQuery(adminUrl, `create database "${name}"`)
  const databaseUrl = urlPattern.replace('__DB__', name)
  // A caller that needs the port in advance (to build a BASE_URL on another host
  // name) passes PORT; `url` is then where that very port is reached.
  const port = env.PORT ? Number(env.PORT) : await freePort()
  const url = `http://${reachableHost(env.HOST)}:${port}`

  const child: ChildProcess = spawn('npm', ['start', '--', '--no-build'], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      BASE_URL: url,
      DATABASE_URL: databaseUrl,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inkwell-e2e-')),
      PAYLOAD_SECRET: 'test-secret-not-for-production',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  let running = false
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      // Looked for until found only: the whole output is kept (tests read it), but scanning it again per chunk under load is quadratic.
      if (!running && output.includes('Inkwell is running')) {
        running = true
        resolve()
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code} before it was ready:\n${output}`)))
  })
  await ready
  // The moderation plugin holds a new account's first reply: e2e flows post as new readers (tests/helpers/moderation.ts).
  // An app told to use another database (the embedded one: DATABASE_URL='') keeps that database's own rules.
  const onTestDatabase = (env.DATABASE_URL ?? databaseUrl) === databaseUrl
  if (!shareDatabase && !moderationDefaults && onTestDatabase) await adminQuery(databaseUrl, TRUST_TEST_READERS_SQL)

  const dropDatabase = async () => void (await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`))
  const stop = async ({ keepDatabase = false } = {}) => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      process.kill(-child.pid!, 'SIGTERM')
      await exited
    }
    // npm may exit before the server it started (npm → tsx → node) has finished
    // its clean shutdown; the process group is gone only when all of them are.
    await waitUntil(async () => !groupAlive(child.pid!), { what: 'the app to shut down', everyMs: 50, timeoutMs: 30_000 })
    if (!keepDatabase) await dropDatabase()
  }
  return { url, databaseUrl, output: () => output, stop, dropDatabase, processes: () => groupCommandLines(child.pid!) }
}
