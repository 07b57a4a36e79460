/**
 * The admin's import map (src/app/(payload)/admin/importMap.js) is generated from the
 * config's admin components, and committed. A plugin that adds a component (ours, or
 * one composed in, like the S3 adapter's upload provider) without the map regenerated
 * leaves the admin an empty page. `npm run generate:importmap` after such a change.
 */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

import { generateImportMap } from 'payload'
import { describe, expect, it } from 'vitest'

const MAP = path.join(__dirname, '../../src/app/(payload)/admin/importMap.js')

describe('the admin import map', () => {
  it('is the one the config generates (run npm run generate:importmap if not)', async () => {
    // Vitest sets BASE_URL to Vite's '/', which is not a site address.
    Object.assign(process.env, { PAYLOAD_SECRET: 'test-secret-not-for-production', BASE_URL: 'http://localhost:3000', DATA_DIR: path.join(__dirname, '../../.ci/out/import-map-data') })
    const config = await (await import('../../payload.config')).default
    const committed = await readFile(MAP, 'utf8')
    // Payload writes the file only when it differs: then put the committed one back and fail.
    await generateImportMap(config, { log: false })
    const generated = await readFile(MAP, 'utf8')
    if (generated !== committed) await writeFile(MAP, committed)
    expect(generated.trim()).toBe(committed.trim())
  }, 60_000)
})
