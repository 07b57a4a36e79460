/**
 * Runs one of the project's scripts (scripts/*.ts, jobs/cli.ts) as its own
 * process through tsx, against a test database, the way an operator would.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** The environment of a script run against `databaseUrl`: test mode, quiet logs, a data dir of its own. */
export function scriptEnv(databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PAYLOAD_SECRET: 'test-secret-not-for-production',
    BASE_URL: 'http://localhost:3000',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inkwell-script-')),
    LOG_LEVEL: 'error',
    NODE_ENV: 'test',
    ...extra,
  }
}

export function spawnScript(script: string, args: string[], env: NodeJS.ProcessEnv, options: { detached?: boolean } = {}): ChildProcess {
  return spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached })
}

/** Runs a script to its end and collects what it printed. */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnScript(script, args, env)
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (c) => (stdout += c))
  child.stderr!.on('data', (c) => (stderr += c))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })))
}
