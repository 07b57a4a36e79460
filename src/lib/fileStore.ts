/**
 * Where the site's files live, as one small interface: a directory on local
 * disk (the default), or an S3-compatible bucket
 * (src/plugins/storage/s3Store.ts). Keys are paths relative to the store's
 * root with `/` separators (`blue.png`, `blue-96x96.png`), the same keys
 * Payload's upload handling and the S3 adapter use. The uploads are one store
 * (`mediaStoreOf`), the generated share cards another (`cardStoreOf`).
 */
import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

export type FileStore = {
  /** For messages: "/var/lib/inkwell/media", "s3://bucket". */
  readonly where: string
  /** Every key in the store (or only those starting with `prefix`), sorted. */
  list(prefix?: string): Promise<string[]>
  /** Rejects with FileNotFound when there is no such key. */
  read(key: string): Promise<Readable>
  /** Readers never see a half-written file: it appears whole or not at all. */
  write(key: string, body: Readable, contentType?: string): Promise<void>
  exists(key: string): Promise<boolean>
  /** Removes the key; a missing key is not an error. */
  remove(key: string): Promise<void>
}

/** What both stores reject a read of a missing key with. */
export class FileNotFound extends Error {
  constructor(readonly key: string, where: string) {
    super(`no file ${JSON.stringify(key)} in ${where}`)
    this.name = 'FileNotFound'
  }
}

/** A file's whole content, or undefined when there is no such key. */
export async function readWhole(store: FileStore, key: string): Promise<Buffer | undefined> {
  try {
    const chunks: Buffer[] = []
    for await (const chunk of await store.read(key)) chunks.push(Buffer.from(chunk as Uint8Array))
    return Buffer.concat(chunks)
  } catch (error) {
    if (error instanceof FileNotFound) return undefined
    throw error
  }
}

/** The suffix of a file being written (diskStore): never listed, renamed into place when whole. */
const PARTIAL = '.partial'

/**
 * `relative` as a path inside `root`, or undefined when it would leave it
 * (absolute, `..`, a NUL): keys and names from outside never reach elsewhere.
 */
export function insideRoot(root: string, relative: string): string | undefined {
  if (relative.includes('\0') || path.isAbsolute(relative)) return undefined
  const resolved = path.resolve(root, relative)
  return resolved.startsWith(path.resolve(root) + path.sep) ? resolved : undefined
}

/** A path from a key, inside `root` only: a key that climbs out is refused. */
function pathOf(root: string, key: string): string {
  const resolved = insideRoot(root, key)
  if (!resolved) throw new Error(`file key ${JSON.stringify(key)} is outside ${root}`)
  return resolved
}

export function diskStore(root: string): FileStore {
  return {
    where: root,
    async list(prefix = '') {
      // Only the prefix's folder is walked: listing one article's cards does not read every article's.
      const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1)
      const start = folder ? pathOf(root, folder) : root
      const entries = await readdir(start, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return []
        throw error
      })
      // Symlinks are not followed: nothing outside the directory is listed.
      return entries
        .filter((e) => e.isFile() && !e.name.endsWith(PARTIAL))
        .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
        .filter((key) => key.startsWith(prefix))
        .sort()
    },
    async read(key) {
      const file = pathOf(root, key)
      // A missing file rejects here, before anyone pipes the stream.
      await stat(file).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'ENOENT' ? new FileNotFound(key, root) : error
      })
      return createReadStream(file)
    },
    async write(key, body) {
      const file = pathOf(root, key)
      await mkdir(path.dirname(file), { recursive: true })
      // Written beside, renamed into place: another process reading the key never gets half a file.
      const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}${PARTIAL}`
      try {
        await pipeline(body, createWriteStream(partial))
        await rename(partial, file)
      } catch (error) {
        await rm(partial, { force: true })
        throw error
      }
    },
    async exists(key) {
      return stat(pathOf(root, key)).then((s) => s.isFile(), () => false)
    },
    async remove(key) {
      await rm(pathOf(root, key), { force: true })
    },
  }
}
