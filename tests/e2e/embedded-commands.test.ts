/**
 * Issue 26 §2: `npm run blog -- <command>` on the default embedded database,
 * with the site stopped (the command starts the server itself) and beside a
 * running `npm start` (it uses the running server: never two servers on one
 * data folder). When it cannot, it says why in one line and exits non-zero.
 */
import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { freePort, startApp, type RunningApp } from '../helpers/app'

let dataDir: string
let pgPort: number
let site: RunningApp | undefined

/** The environment of the README's default install: no DATABASE_URL, one data folder. */
function defaultEnv(extra: Record<string, string> = {}): Record<string, string> {
  // BASE_URL: vitest sets it to '/' in the environment the children inherit.
  return { DATABASE_URL: '', BASE_URL: 'http://localhost:3000', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), NODE_ENV: 'development', LOG_LEVEL: 'warn', ...extra }
}

/** `npm run blog -- <args>`, exactly as a person types it. */
function blog(args: string[], extra: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const child = spawn('npm', ['run', '--silent', 'blog', '--', ...args], { env: { ...process.env, ...defaultEnv(extra) }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (c) => (out += c))
  child.stderr.on('data', (c) => (out += c))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })))
}

const COMMANDS: string[][] = [['--help'], ['schedule:run'], ['recount-unread-notifications'], ['publish-scheduled']]

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-embedded-'))
  chmodSync(dataDir, 0o755) // the server runs as the `postgres` user when the tests run as root
  pgPort = await freePort()
})
afterAll(async () => {
  await site?.stop({ keepDatabase: true })
})

describe('npm run blog on the embedded database', () => {
  it.each(COMMANDS.map((c) => [c.join(' '), c]))('runs `%s` with the site stopped, starting the server itself', async (_, args) => {
    const { code, out } = await blog(args)
    expect(out, out).not.toMatch(/undefined|triggerUncaughtException/)
    expect(code, out).toBe(0)
  }, 240_000)

  it.each(COMMANDS.map((c) => [c.join(' '), c]))('runs `%s` beside the running site, on its server', async (_, args) => {
    site ??= await startApp(defaultEnv())
    const { code, out } = await blog(args)
    expect(out, out).not.toMatch(/undefined|triggerUncaughtException/)
    expect(code, out).toBe(0)
    // The site still has its database after the command is gone.
    expect((await fetch(`${site.url}/api/articles?limit=1`)).status).toBe(200)
  }, 240_000)

  it('says in one line why it cannot run beside the site on another EMBEDDED_PG_PORT, and exits 1', async () => {
    site ??= await startApp(defaultEnv())
    const { code, out } = await blog(['schedule:run'], { EMBEDDED_PG_PORT: String(await freePort()) })
    expect(code, out).toBe(1)
    const lines = out.trim().split('\n').filter((l) => l.trim())
    expect(lines, out).toHaveLength(1)
    expect(lines[0]).toMatch(/already running on port \d+ .*EMBEDDED_PG_PORT/)
  }, 120_000)
})
