/**
 * `restore <dir> [--force]`: a backup into this site's database and media
 * directory. Run it with the site stopped (web processes keep pages in memory).
 *
 * Before anything is touched: the manifest and every file's size and checksum
 * (a damaged or truncated backup is refused), the migrations (the backup's
 * must be exactly this version's: restore with the version that made it, then
 * upgrade), the tables and their columns, and an empty site unless `--force`.
 *
 * Then one transaction, like pg_restore's order: foreign keys dropped, every
 * table emptied, user triggers off (the dashboard's rollup triggers would count
 * the restored rows twice: their tables are restored too), data copied in,
 * foreign keys added back (which checks them), sequences set. Any failure
 * rolls it all back: the database is as it was. The media are written after
 * the commit, to the site's file store (the media directory or the bucket).
 */
import { createReadStream } from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'

import { escapeIdentifier, escapeLiteral, type Pool, type PoolClient } from 'pg'
import { from as copyFrom } from 'pg-copy-streams'

import { CommandFailure, type CommandIO } from '../../../jobs/commands'
import { INVALIDATION_CHANNEL } from '../../lib/cacheBus'
import { insideRoot, type FileStore } from '../../lib/fileStore'
import { readManifest, tableFile, verifyFiles, type Manifest } from './manifest'
import { foreignKeysOf, migrationsOf, tablesOf, type TableColumns } from './schema'

/** Rows that make a site more than a freshly migrated database. */
const CONTENT_TABLES = ['users', 'articles', 'replies', 'media']

async function isEmptySite(client: PoolClient, tables: TableColumns[]): Promise<boolean> {
  for (const table of CONTENT_TABLES.filter((t) => tables.some((x) => x.name === t))) {
    const { rows } = await client.query(`select 1 from ${escapeIdentifier(table)} limit 1`)
    if (rows.length > 0) return false
  }
  return true
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

/** The backup was made by this version's schema: same migrations, same tables, same stored columns. */
function checkSchema(manifest: Manifest, migrations: string[], tables: TableColumns[]): void {
  if (!sameList([...manifest.migrations].sort(), migrations)) {
    const missing = manifest.migrations.filter((m) => !migrations.includes(m))
    const extra = migrations.filter((m) => !manifest.migrations.includes(m))
    throw new CommandFailure(
      `the backup was made by another version of Inkwell (${missing.length ? `migrations unknown here: ${missing.join(', ')}` : `migrations it lacks: ${extra.join(', ')}`}). Restore it with the version that made it, then upgrade.`,
    )
  }
  const here = new Map(tables.map((t) => [t.name, t.columns]))
  const missing = tables.find((t) => !manifest.tables.some((x) => x.name === t.name))
  if (missing) throw new CommandFailure(`the backup has no table "${missing.name}" (damaged manifest)`)
  for (const table of manifest.tables) {
    const columns = here.get(table.name)
    if (!columns) throw new CommandFailure(`the backup has a table "${table.name}" this database does not`)
    if (!sameList([...table.columns].sort(), [...columns].sort())) throw new CommandFailure(`table "${table.name}" has other columns here than in the backup`)
  }
}

async function loadTable(client: PoolClient, dir: string, table: Manifest['tables'][number]): Promise<void> {
  const columns = table.columns.map(escapeIdentifier).join(', ')
  const sink = client.query(copyFrom(`COPY ${escapeIdentifier(table.name)} (${columns}) FROM STDIN`))
  await pipeline(createReadStream(path.join(dir, tableFile(table.name))), createGunzip(), sink)
  if (sink.rowCount !== table.rows) throw new CommandFailure(`${tableFile(table.name)} holds ${sink.rowCount} rows, the manifest says ${table.rows} (damaged)`)
}

async function loadDatabase(client: PoolClient, dir: string, manifest: Manifest, tables: TableColumns[], io: CommandIO): Promise<void> {
  const quoted = tables.map((t) => escapeIdentifier(t.name))
  await client.query('BEGIN')
  try {
    const keys = await foreignKeysOf(client)
    for (const key of keys) await client.query(`ALTER TABLE ${escapeIdentifier(key.table)} DROP CONSTRAINT ${escapeIdentifier(key.name)}`)
    for (const table of quoted) await client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`)
    await client.query(`TRUNCATE ${quoted.join(', ')}`)
    for (const [i, table] of manifest.tables.entries()) {
      await loadTable(client, dir, table)
      io.progress(i + 1, manifest.tables.length)
    }
    for (const table of quoted) await client.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`)
    for (const key of keys) await client.query(`ALTER TABLE ${escapeIdentifier(key.table)} ADD CONSTRAINT ${escapeIdentifier(key.name)} ${key.definition}`)
    for (const sequence of manifest.sequences) {
      const name = escapeLiteral(escapeIdentifier(sequence.name))
      // A sequence never used restarts at its start; one used goes on after its last value.
      if (sequence.value === null) await client.query(`select setval(${name}::regclass, (select seqstart from pg_sequence where seqrelid = ${name}::regclass), false)`)
      else await client.query(`select setval(${name}::regclass, $1::bigint, true)`, [sequence.value])
    }
    // Web processes still serving this database drop every cached page and role once the restore commits.
    await client.query(`select pg_notify($1, '*')`, [INVALIDATION_CHANNEL])
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}

async function restoreMedia(dir: string, media: FileStore, manifest: Manifest, io: CommandIO): Promise<void> {
  for (const [i, file] of manifest.media.entries()) {
    const source = insideRoot(path.join(dir, 'media'), file.path)
    if (!source) throw new CommandFailure(`the manifest names ${JSON.stringify(file.path)}, outside the backup`)
    await media.write(file.path, createReadStream(source))
    io.progress(i + 1, manifest.media.length)
  }
}

export type RestoreResult = { tables: number; rows: number; files: number }

export async function restoreBackup(pool: Pool, media: FileStore, dir: string, { force }: { force: boolean }, io: CommandIO): Promise<RestoreResult> {
  const source = path.resolve(dir)
  const manifest = await readManifest(source)
  io.log(`restore: checking ${manifest.tables.length} tables and ${manifest.media.length} files against the manifest…`)
  let checked = 0
  const total = manifest.tables.length + manifest.media.length
  await verifyFiles(source, manifest, () => io.progress(++checked, total))

  const client = await pool.connect()
  try {
    const tables = await tablesOf(client)
    checkSchema(manifest, await migrationsOf(client), tables)
    if (!force && !(await isEmptySite(client, tables))) {
      throw new CommandFailure('this database already holds a site (users, articles, replies or media): restore into an empty one, or add --force to replace it')
    }
    io.log(`restore: loading ${manifest.tables.reduce((sum, t) => sum + t.rows, 0)} rows (one transaction)…`)
    await loadDatabase(client, source, manifest, tables, io)
  } finally {
    client.release()
  }
  io.log(`restore: writing ${manifest.media.length} media files to ${media.where}…`)
  await restoreMedia(source, media, manifest, io)
  return { tables: manifest.tables.length, rows: manifest.tables.reduce((sum, t) => sum + t.rows, 0), files: manifest.media.length }
}
