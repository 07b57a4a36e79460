/**
 * What a backup directory holds, and the checks a restore makes before it
 * touches anything. A backup is:
 *
 *   manifest.json            this file's shape (written last: without it, no backup)
 *   db/<table>.tsv.gz        each table of the `public` schema, COPY text format, gzipped
 *   media/<path>             the uploaded files (DATA_DIR/media), as they are on disk
 *
 * Every file's size and SHA-256 are in the manifest, so a damaged or truncated
 * backup is refused before the database is touched.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'

import { z } from 'zod'

import { CommandFailure } from '../../../jobs/commands'
import { insideRoot } from '../../lib/fileStore'

export const MANIFEST = 'manifest.json'
export const FORMAT = 'inkwell-backup'
export const VERSION = 1

/** A table or media file name as it may appear in a manifest: no separators that climb out, no control characters. */
const TABLE_NAME = /^[a-z_][a-z0-9_]*$/
const checksum = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex')

const fileEntry = { bytes: z.number().int().min(0), sha256: checksum }

const manifestSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  createdAt: z.string(),
  postgres: z.string(),
  migrations: z.array(z.string()),
  tables: z.array(z.object({ name: z.string().regex(TABLE_NAME), columns: z.array(z.string()).min(1), rows: z.number().int().min(0), ...fileEntry })),
  sequences: z.array(z.object({ name: z.string().regex(TABLE_NAME), value: z.string().regex(/^\d+$/).nullable() })),
  media: z.array(z.object({ path: z.string().min(1), ...fileEntry })),
})

export type Manifest = z.infer<typeof manifestSchema>
export type TableEntry = Manifest['tables'][number]

/** Where a table's data lives inside the backup: named from the table, never read from the manifest. */
export const tableFile = (table: string) => path.join('db', `${table}.tsv.gz`)

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(file), hash)
  return hash.digest('hex')
}

/** Reads and checks `manifest.json`: a missing, unreadable or malformed one is a clear refusal. */
export async function readManifest(dir: string): Promise<Manifest> {
  let text: string
  try {
    text = await readFile(path.join(dir, MANIFEST), 'utf8')
  } catch {
    throw new CommandFailure(`${dir} is not a backup (no ${MANIFEST}: an unfinished or missing backup)`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new CommandFailure(`${path.join(dir, MANIFEST)} is not valid JSON (damaged)`)
  }
  const parsed = manifestSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new CommandFailure(`${path.join(dir, MANIFEST)}: ${issue.path.join('.') || 'the manifest'} ${issue.message}`)
  }
  return parsed.data
}

/** Every file the manifest names exists with its size and checksum; the first that does not is named. */
export async function verifyFiles(dir: string, manifest: Manifest, onFile: () => void = () => {}): Promise<void> {
  const entries = [
    ...manifest.tables.map((t) => ({ name: tableFile(t.name), bytes: t.bytes, sha256: t.sha256 })),
    ...manifest.media.map((m) => ({ name: path.join('media', m.path), bytes: m.bytes, sha256: m.sha256 })),
  ]
  for (const entry of entries) {
    const file = insideRoot(dir, entry.name)
    if (!file) throw new CommandFailure(`the manifest names ${JSON.stringify(entry.name)}, outside the backup`)
    const size = await stat(file).then((s) => s.size, () => undefined)
    if (size === undefined) throw new CommandFailure(`${entry.name} is missing from the backup`)
    if (size !== entry.bytes) throw new CommandFailure(`${entry.name} is ${size} bytes, the manifest says ${entry.bytes} (truncated or damaged)`)
    if ((await sha256Of(file)) !== entry.sha256) throw new CommandFailure(`${entry.name} does not match its checksum (damaged)`)
    onFile()
  }
}
