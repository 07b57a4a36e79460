/**
 * `npm run worker` as a process of its own, for tests where workers crash or
 * several share one database.
 */
import type { ChildProcess } from 'node:child_process'

import { spawnScript } from './script'

/**
 * Starts a worker in its own process group (so SIGKILL reaches tsx's child
 * too), adds it to `started` at once (for the file's clean-up, even if it fails
 * to start) and resolves once it says it is running.
 */
export function startWorker(env: NodeJS.ProcessEnv, started: ChildProcess[]): Promise<ChildProcess> {
  const child = spawnScript('scripts/worker.ts', [], env, { detached: true })
  started.push(child)
  return new Promise((resolve, reject) => {
    let out = ''
    let running = false
    const onData = (c: Buffer) => {
      if (running) return // its log after that is not read: only drained
      out += c
      if (out.includes('Inkwell worker is running')) {
        running = true
        resolve(child)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${out}`)))
  })
}

/** Signals the worker's whole process group; a group already gone is fine. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-child.pid!, signal)
  } catch {}
}
