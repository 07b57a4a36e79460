/**
 * `npm start`, `npm run worker`, `npm run blog`: runs the entry point named by
 * the first argument. In production (NODE_ENV=production in the environment)
 * with a build that is current, that is the compiled JavaScript from
 * `npm run build` (src/lib/compile.ts), run by plain Node: no TypeScript loader
 * in the serving process, a quicker start. Otherwise (development, or sources
 * changed since the build) the TypeScript source runs through tsx's loader,
 * in this same process; `npm start` then rebuilds what is stale as before.
 *
 * Plain JavaScript on purpose: it must run before anything is compiled.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import { importHeapFlags } from './importHeap.mjs'
import { serverHeapFlags } from './serverHeap.mjs'

const root = path.resolve(import.meta.dirname, '..')
const SOURCES = { start: 'scripts/start.ts', worker: 'scripts/worker.ts', blog: 'jobs/cli.ts' }

const name = process.argv[2]
if (!(name in SOURCES)) {
  console.error(`usage: node scripts/launch.mjs <${Object.keys(SOURCES).join('|')}> [arguments]`)
  process.exit(2)
}
// The entry point sees its own arguments where it expects them (process.argv.slice(2)).
process.argv.splice(2, 1)

// An import runs again with a bounded heap (scripts/importHeap.mjs says why), in a child that inherits the terminal.
const heapFlags = name === 'blog' && /^import:/.test(process.argv[2] ?? '') ? importHeapFlags() : []
if (heapFlags.length) {
  const child = spawnSync(process.execPath, [...process.execArgv, ...heapFlags, import.meta.filename, name, ...process.argv.slice(2)], { stdio: 'inherit' })
  process.exit(child.status ?? 1)
}

// The web process starts again with its V8 heap flags (scripts/serverHeap.mjs says which and why): the same
// process (execve keeps its pid, its output and its signals), so a supervisor or the bench sees no wrapper.
const webFlags = name === 'start' && typeof process.execve === 'function' ? serverHeapFlags() : []
if (webFlags.length) {
  process.execve(process.execPath, [process.execPath, ...webFlags, ...process.execArgv, import.meta.filename, name, ...process.argv.slice(2)], process.env)
}

const compiled = path.join(root, '.next', 'server-entry', `${name}.mjs`)

async function compiledIsCurrent() {
  if (process.env.NODE_ENV !== 'production' || !existsSync(compiled)) return false
  const { buildIsCurrent } = await import(pathToFileURL(path.join(root, '.next', 'server-entry', 'build.mjs')).href)
  return buildIsCurrent()
}

/** What went wrong, readable even when a library threw something that is not an Error (or nothing at all). */
function describe(thrown) {
  if (thrown instanceof Error) return thrown.stack ?? thrown.message
  return `a ${thrown === null ? 'null' : typeof thrown} value was thrown instead of an error: ${thrown === undefined ? 'no reason given' : String(thrown)}`
}
// Anything a command did not handle ends the process with one readable line and exit 1, never "undefined".
const fail = (thrown) => {
  console.error(`\n✖ ${name} failed: ${describe(thrown)}\n`)
  process.exit(1)
}
process.on('unhandledRejection', fail)
process.on('uncaughtException', fail)

try {
  if (await compiledIsCurrent()) {
    await import(pathToFileURL(compiled).href)
  } else {
    // The same two loaders the tsx command installs (ES modules and require), in this process.
    const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')])
    esm.register()
    cjs.register()
    await import(pathToFileURL(path.join(root, SOURCES[name])).href)
  }
} catch (thrown) {
  fail(thrown)
}
