/**
 * Start-up steps shared by `npm start`, `npm run worker`, `npm run migrate` and
 * `npm run seed`: configuration, database, migrations, Payload.
 */
import { getPayload, type Payload } from 'payload'

import { ConfigError, getEnv, type Env, type ProcessOverrides } from './env'
import { EmbeddedDatabaseError, startEmbeddedDatabase, type RunningDatabase } from './database'
import { poolIfConnected, poolOf } from './pool'

export type Log = (message: string) => void

export type Booted = { env: Env; payload: Payload; database: RunningDatabase }

/** Loads and validates the configuration; a bad value exits with a message that names it. */
export function loadEnvOrExit(overrides: ProcessOverrides = {}): Env {
  try {
    return getEnv(overrides)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`\n✖ ${error.message}\n\nSee .env.example for every variable and its default.\n`)
      process.exit(78) // EX_CONFIG
    }
    throw error
  }
}

export type BootOptions = { log?: Log; migrate?: boolean; overrides?: ProcessOverrides }

/** Starts (or joins) the embedded database; when it cannot, says why in one line and exits 1. */
async function databaseOrExit(env: Env, log: Log): Promise<RunningDatabase> {
  try {
    return await startEmbeddedDatabase(env, log)
  } catch (error) {
    if (error instanceof EmbeddedDatabaseError) {
      console.error(`\n✖ ${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
}

export async function bootPayload({ log = console.log, migrate = true, overrides }: BootOptions = {}): Promise<Booted> {
  const env = loadEnvOrExit(overrides)
  const database = await databaseOrExit(env, log)
  const { default: config } = await import('../../payload.config')
  const payload = await getPayload({ config })
  if (migrate) await migrateLocked(payload, log)
  return { env, payload, database }
}

export async function runMigrations({ log = console.log, overrides }: Omit<BootOptions, 'migrate'> = {}): Promise<void> {
  const { payload, database } = await bootPayload({ log, migrate: false, overrides })
  await migrateLocked(payload, log)
  await closePayload(payload)
  await database.stop()
}

/**
 * Several processes may start at once (web + workers): a session advisory
 * lock lets exactly one of them migrate while the others wait.
 */
export async function migrateLocked(payload: Payload, log: Log): Promise<void> {
  const { migrations } = await import('../migrations')
  const client = await poolOf(payload).connect()
  try {
    await client.query(`select pg_advisory_lock(hashtext('inkwell:migrations'))`)
    const done = await client
      .query<{ name: string }>(`select name from payload_migrations`)
      .then((r) => new Set(r.rows.map((row) => row.name)))
      .catch(() => new Set<string>())
    const pending = migrations.filter((m) => !done.has(m.name))
    if (pending.length === 0) return
    log(`Applying ${pending.length} migration(s): ${pending.map((m) => m.name).join(', ')}`)
    await payload.db.migrate({ migrations: pending as never })
  } finally {
    await client.query(`select pg_advisory_unlock(hashtext('inkwell:migrations'))`).catch(() => {})
    client.release()
  }
}

/**
 * Payload's destroy() resets the adapter but leaves the pg pool open, which
 * keeps the process alive and errors when the database goes away. End both.
 */
export async function closePayload(payload: Payload): Promise<void> {
  const pool = poolIfConnected(payload)
  await payload.destroy().catch(() => {})
  if (!pool || pool.ended) return
  // The adapter holds one client checked out for the pool's whole life, so
  // pool.end() alone would wait forever: close every client, then the pool.
  for (const client of pool._clients ?? []) client.end?.().catch?.(() => {})
  // Not unref'd: the wait itself must keep the event loop alive until it settles.
  let timer: NodeJS.Timeout | undefined
  await Promise.race([pool.end().catch(() => {}), new Promise((r) => (timer = setTimeout(r, 2_000)))])
  clearTimeout(timer)
}
