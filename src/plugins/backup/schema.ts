/**
 * The parts of the `public` schema a backup reads and a restore writes:
 * tables with their stored columns, sequences, foreign keys and migrations.
 * The schema itself is not in a backup: it is what the committed migrations
 * build, so a restore builds it the same way and checks it is the same.
 */
import type { PoolClient } from 'pg'

export type TableColumns = { name: string; columns: string[] }

/**
 * Every base table of `public`, with the columns COPY can write back: not
 * generated ones (the search index's tsvector is computed again on insert).
 */
export async function tablesOf(client: PoolClient): Promise<TableColumns[]> {
  const { rows } = await client.query<{ table: string; columns: string[] }>(`
    select c.relname as table, array_agg(a.attname::text order by a.attnum) as columns
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     where c.relkind in ('r', 'p')
     group by c.relname
     order by c.relname`)
  return rows.map((r) => ({ name: r.table, columns: r.columns }))
}

export async function sequencesOf(client: PoolClient): Promise<{ name: string; value: string | null }[]> {
  const { rows } = await client.query<{ name: string; value: string | null }>(
    `select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public' order by sequencename`,
  )
  return rows
}

export type ForeignKey = { table: string; name: string; definition: string }

export async function foreignKeysOf(client: PoolClient): Promise<ForeignKey[]> {
  const { rows } = await client.query<ForeignKey>(`
    select cl.relname as table, co.conname as name, pg_get_constraintdef(co.oid) as definition
      from pg_constraint co
      join pg_class cl on cl.oid = co.conrelid
      join pg_namespace n on n.oid = co.connamespace and n.nspname = 'public'
     where co.contype = 'f'
     order by cl.relname, co.conname`)
  return rows
}

/** The migrations applied, by name (Payload's `payload_migrations`, batch -1 rows are dev pushes and left out). */
export async function migrationsOf(client: PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(`select name from payload_migrations where batch <> -1 order by name`)
  return rows.map((r) => r.name)
}
