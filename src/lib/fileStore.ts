/**
 * Where the site's files live, as one small interface: the uploads directory
 * on local disk (the default), or an S3-compatible bucket
 * (src/plugins/storage/s3Store.ts). Keys are paths relative to the store's
 * root with `/` separators (`blue.png`, `blue-96x96.png`), the same keys
 * Payload's upload handling and the S3 adapter use.
 */
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

export type FileStore = {
  /** For messages: "/var/lib/inkwell/media", "s3://bucket". */
  readonly where: string
  /** Every key in the store, sorted. */
  list(): Promise<string[]>
  read(key: string): Promise<Readable>
  write(key: string, body: Readable, contentType?: string): Promise<void>
  exists(key: string): Promise<boolean>
}

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
    async list() {
      const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return []
        throw error
      })
      // Symlinks are not followed: nothing outside the directory is listed.
      return entries
        .filter((e) => e.isFile())
        .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
        .sort()
    },
    async read(key) {
      const file = pathOf(root, key)
      await stat(file) // a missing file rejects here, before anyone pipes the stream
      return createReadStream(file)
    },
    async write(key, body) {
      const file = pathOf(root, key)
      await mkdir(path.dirname(file), { recursive: true })
      await pipeline(body, createWriteStream(file))
    },
    async exists(key) {
      return stat(pathOf(root, key)).then((s) => s.isFile(), () => false)
    },
  }
}
