/**
 * The disk FileStore (src/lib/fileStore.ts) as the share cards and backups use
 * it: listing by prefix, a missing key, removal, keys that climb out, and a
 * write that readers never see half done.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'

import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { diskStore, FileNotFound, readWhole, type FileStore } from '../../src/lib/fileStore'

let root: string
let store: FileStore
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'inkwell-disk-store-'))
  store = diskStore(root)
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const put = (key: string, text: string) => store.write(key, Readable.from([Buffer.from(text)]))

describe('the disk store', () => {
  it('lists every key, or those under a prefix, without walking other folders', async () => {
    await put('7/aaa-400-light.png', 'a')
    await put('7/bbb-400-light.png', 'b')
    await put('70/ccc-400-light.png', 'c')
    await put('top.png', 't')
    expect(await store.list()).toEqual(['7/aaa-400-light.png', '7/bbb-400-light.png', '70/ccc-400-light.png', 'top.png'])
    expect(await store.list('7/')).toEqual(['7/aaa-400-light.png', '7/bbb-400-light.png'])
    expect(await store.list('7/b')).toEqual(['7/bbb-400-light.png'])
    expect(await store.list('nothing/')).toEqual([])
  })

  it('reads a whole file, answers undefined (FileNotFound from read) for a missing one, and removes', async () => {
    await put('1/card.png', 'bytes')
    expect((await readWhole(store, '1/card.png'))?.toString()).toBe('bytes')
    expect(await readWhole(store, '1/none.png')).toBeUndefined()
    await expect(store.read('1/none.png')).rejects.toBeInstanceOf(FileNotFound)
    await store.remove('1/card.png')
    await store.remove('1/card.png') // a missing key is not an error
    expect(await store.exists('1/card.png')).toBe(false)
  })

  it('writes beside the file and renames it into place; a partial file is never listed', async () => {
    await writeFile(path.join(root, 'left.png.123-abcd.partial'), 'half')
    await put('whole.png', 'whole')
    expect(await store.list()).toEqual(['whole.png'])
    expect((await readdir(root)).sort()).toEqual(['left.png.123-abcd.partial', 'whole.png'])
  })

  it('refuses keys that climb out of the root', async () => {
    await expect(put('../outside.png', 'x')).rejects.toThrow(/outside/)
    await expect(store.list('../')).rejects.toThrow(/outside/)
  })
})
