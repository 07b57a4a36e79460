/**
 * The benches' admin connection to the machine's PostgreSQL: BENCH_DATABASE_URL,
 * else PGUSER/PGHOST/PGPORT (postgres on 127.0.0.1:5432), database `postgres`,
 * where each bench creates and drops a database of its own.
 */
import pg from 'pg'

export function adminUrl(): string {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL
  return `postgres://${process.env.PGUSER ?? 'postgres'}@${process.env.PGHOST ?? '127.0.0.1'}:${process.env.PGPORT ?? '5432'}/postgres`
}

/** Runs one statement on the admin connection (create / drop database). */
export async function admin(sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl() })
  await client.connect()
  try {
    return await client.query(sql)
  } finally {
    await client.end()
  }
}
