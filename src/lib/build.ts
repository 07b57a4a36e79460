/**
 * Builds the Next host (Payload admin/API) and the Astro site when their
 * sources changed since the last build, so `npm start` is one command and a
 * restart with nothing changed skips straight to serving.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

import { compiledEntry, compileServer } from './compile'

const root = path.resolve(import.meta.dirname, '../..')
const STAMP = path.join(root, '.next', 'inkwell-build-stamp')

const SOURCES = ['src', 'collections', 'hooks', 'jobs', 'scripts', 'frontend/src', 'frontend/public']
const FILES = ['payload.config.ts', 'next.config.mjs', 'frontend/astro.config.mjs', 'package-lock.json', 'tsconfig.json']

function* walk(dir: string): Generator<string> {
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(full)
    else yield full
  }
}

/** A fingerprint of every source file's path, size and mtime: cheap, and changes on any edit. */
export function sourceFingerprint(): string {
  const hash = createHash('sha256')
  const files = [...SOURCES.flatMap((d) => [...walk(path.join(root, d))]), ...FILES.map((f) => path.join(root, f))]
  for (const file of files.sort()) {
    if (!existsSync(file)) continue
    const s = statSync(file)
    hash.update(`${path.relative(root, file)}:${s.size}:${s.mtimeMs}\n`)
  }
  return hash.digest('hex')
}

export function buildIsCurrent(): boolean {
  if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) return false
  if (!existsSync(path.join(root, 'frontend/dist/server/entry.mjs'))) return false
  if (!existsSync(compiledEntry('start'))) return false
  if (!existsSync(STAMP)) return false
  return readFileSync(STAMP, 'utf8').trim() === sourceFingerprint()
}

function run(label: string, args: string[], log: (m: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    log(`[build] ${label}…`)
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ASTRO_TELEMETRY_DISABLED: '1' },
    })
    let output = ''
    const collect = (chunk: Buffer) => {
      output += chunk.toString()
      for (const line of chunk.toString().split('\n')) {
        if (/(Compiled|Generating|Collecting|✓|error|Error|Complete)/.test(line)) log(`[build]   ${line.trim()}`)
      }
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    child.on('exit', (code) => {
      if (code === 0) {
        log(`[build] ${label} done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
        resolve()
      } else reject(new Error(`${label} failed (exit ${code}):\n${output.slice(-4000)}`))
    })
  })
}

export async function build(log: (m: string) => void = console.log): Promise<void> {
  const fingerprint = sourceFingerprint()
  await run('Building the admin and API (Next.js)', [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], log)
  await run('Building the reader site (Astro)', [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--root', 'frontend'], log)
  await compileServer(log) // after Next's build, which empties .next
  writeFileSync(STAMP, fingerprint + '\n')
}

export async function buildIfStale(log: (m: string) => void = console.log): Promise<boolean> {
  if (buildIsCurrent()) return false
  log('[build] Sources changed since the last build (or first run): building. This takes about a minute.')
  await build(log)
  return true
}
