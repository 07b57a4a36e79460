/**
 * `backup <dir>`: the database and the media, while the site keeps serving.
 *
 * Why not pg_dump: the embedded PostgreSQL (the default install) ships no
 * pg_dump, and a machine's pg_dump refuses a newer server. COPY through the
 * app's own connection works on every server Inkwell runs on, and the schema
 * needs no dump: it is what the migrations named in the manifest build.
 *
 * Consistency: every table is copied inside one REPEATABLE READ, READ ONLY
 * transaction, so the backup is the database at one instant (a reply and its
 * article, a count and what it counts), and writers are never blocked.
 * The media (the disk's or the bucket's: src/lib/fileStore.ts) are copied after
 * that instant, so every file a row names exists.
 */
import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'

import { escapeIdentifier, type Pool, type PoolClient } from 'pg'
import { to as copyTo } from 'pg-copy-streams'

import { CommandFailure, type CommandIO } from '../../../jobs/commands'
import type { FileStore } from '../../lib/fileStore'
import { FORMAT, MANIFEST, tableFile, VERSION, type Manifest } from './manifest'
import { migrationsOf, sequencesOf, tablesOf } from './schema'

/** Counts and hashes the bytes that pass, unchanged. */
class Measure extends Transform {
  readonly hash = createHash('sha256')
  bytes = 0
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk)
    this.bytes += chunk.length
    done(null, chunk)
  }
}

async function copyTable(client: PoolClient, dir: string, table: { name: string; columns: string[] }): Promise<Manifest['tables'][number]> {
  const columns = table.columns.map(escapeIdentifier).join(', ')
  const source = client.query(copyTo(`COPY ${escapeIdentifier(table.name)} (${columns}) TO STDOUT`))
  const measure = new Measure()
  await pipeline(source, createGzip(), measure, createWriteStream(path.join(dir, tableFile(table.name))))
  return { name: table.name, columns: table.columns, rows: source.rowCount, bytes: measure.bytes, sha256: measure.hash.digest('hex') }
}

async function copyMedia(store: FileStore, dir: string, io: CommandIO): Promise<Manifest['media']> {
  const keys = await store.list()
  const copied: Manifest['media'] = []
  for (const [i, key] of keys.entries()) {
    const target = path.join(dir, 'media', key)
    await mkdir(path.dirname(target), { recursive: true })
    const measure = new Measure()
    try {
      await pipeline(await store.read(key), measure, createWriteStream(target))
    } catch (error) {
      // Deleted between the listing and the copy (its row is gone from the database too, or will be).
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as Error).name === 'NoSuchKey') continue
      throw error
    }
    copied.push({ path: key, bytes: measure.bytes, sha256: measure.hash.digest('hex') })
    io.progress(i + 1, keys.length)
  }
  return copied
}

async function snapshot(pool: Pool, dir: string, io: CommandIO): Promise<Omit<Manifest, 'media' | 'format' | 'version' | 'createdAt'>> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY')
    const { rows } = await client.query<{ version: string }>("select current_setting('server_version') as version")
    const migrations = await migrationsOf(client)
    const tables = await tablesOf(client)
    const sequences = await sequencesOf(client)
    const copied: Manifest['tables'] = []
    for (const [i, table] of tables.entries()) {
      copied.push(await copyTable(client, dir, table))
      io.progress(i + 1, tables.length)
    }
    await client.query('COMMIT')
    return { postgres: rows[0]!.version, migrations, tables: copied, sequences }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

export type BackupResult = { dir: string; tables: number; rows: number; files: number; bytes: number }

/**
 * Writes a backup into `dir` (which must not exist, or be empty). It is built
 * beside it and renamed into place at the end, so a backup that stopped half
 * way never looks like one.
 */
export async function writeBackup(pool: Pool, media: FileStore, dir: string, io: CommandIO): Promise<BackupResult> {
  const target = path.resolve(dir)
  const existing = await readdir(target).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)))
  if (existing && existing.length > 0) throw new CommandFailure(`${target} is not empty: give a new directory`)
  const building = `${target}.partial-${process.pid}-${Date.now()}`
  await mkdir(path.join(building, 'db'), { recursive: true })
  try {
    io.log('backup: copying the database (one consistent snapshot)…')
    const database = await snapshot(pool, building, io)
    io.log(`backup: copying the media from ${media.where}…`)
    const files = await copyMedia(media, building, io)
    const manifest: Manifest = { format: FORMAT, version: VERSION, createdAt: new Date().toISOString(), ...database, media: files }
    await writeFile(path.join(building, MANIFEST), JSON.stringify(manifest, null, 1))
    if (existing) await rm(target, { recursive: true })
    await rename(building, target)
    const bytes = [...manifest.tables, ...manifest.media].reduce((sum, f) => sum + f.bytes, 0)
    return { dir: target, tables: manifest.tables.length, rows: manifest.tables.reduce((sum, t) => sum + t.rows, 0), files: files.length, bytes }
  } catch (error) {
    await rm(building, { recursive: true, force: true })
    throw error
  }
}

/** Keeps the newest `keep` backups among `root`'s `inkwell-*` directories that are complete; removes the older ones. */
export async function pruneBackups(root: string, keep: number): Promise<string[]> {
  const names = (await readdir(root).catch(() => [] as string[])).filter((n) => n.startsWith('inkwell-') && !n.includes('.partial-'))
  const complete: string[] = []
  for (const name of names) if (await stat(path.join(root, name, MANIFEST)).then(() => true, () => false)) complete.push(name)
  // Names carry a sortable UTC time stamp: the last ones are the newest.
  const old = complete.sort().slice(0, Math.max(0, complete.length - keep))
  for (const name of old) await rm(path.join(root, name), { recursive: true, force: true })
  return old
}

/** `inkwell-20261126T023000Z`: sorts by time, safe on every file system. */
export function backupName(now: Date): string {
  return `inkwell-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`
}
