/**
 * The streaming reader of Inkwell's JSON export (src/plugins/import/jsonSections.ts,
 * stream-json's parser and assembler): every top-level value and list item
 * comes out parsed, whatever falls on a chunk boundary (strings with escapes,
 * brackets and commas inside strings, nested objects); skipped keys are not
 * assembled; malformed and truncated files throw a SyntaxError.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { readJsonSections, type JsonSectionEvent } from '../../src/plugins/import/jsonSections'

const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-json-sections-'))
let n = 0
const fileWith = (text: string) => {
  const file = path.join(dir, `${n++}.json`)
  writeFileSync(file, text)
  return file
}
const all = async (file: string, wanted?: (key: string) => boolean) => {
  const out: JsonSectionEvent[] = []
  for await (const e of readJsonSections(file, wanted)) out.push(e)
  return out
}

describe('readJsonSections', () => {
  it('gives each top-level value and each list item, in file order', async () => {
    const doc = { format: 'inkwell-export', version: 1, site: 'https://a.example', settings: { name: 'A, "quoted" [site]', nested: { deep: [1, { x: '}' }] } }, users: [{ id: 1, e: 'a\\\\b\\"c' }, { id: 2 }], empty: [], last: null }
    const events = await all(fileWith(JSON.stringify(doc, null, 2)))
    expect(events).toEqual([
      { key: 'format', value: 'inkwell-export' },
      { key: 'version', value: 1 },
      { key: 'site', value: 'https://a.example' },
      { key: 'settings', value: doc.settings },
      { key: 'users', index: 0, item: doc.users[0] },
      { key: 'users', index: 1, item: doc.users[1] },
      { key: 'empty', value: [] },
      { key: 'last', value: null },
    ])
  })

  it('reads items that straddle its 1 MB chunks, and parses only the keys wanted', async () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({ id: i, body: `Reply ${i}: "quoted", [brackets] {braces} \\ ${'é中'.repeat(i % 300)}` }))
    const file = fileWith(JSON.stringify({ format: 'x', replies: items, other: items.slice(0, 5) }))
    const replies = (await all(file, (key) => key === 'replies')).filter((e) => 'item' in e)
    expect(replies.map((e) => ('item' in e ? e.item : null))).toEqual(items)
  })

  it('throws a SyntaxError for a file that is not an object, is malformed or is cut short', async () => {
    for (const text of ['[1, 2]', '{"a": 1 "b": 2}', '{"a": [1, 2', '{"a": {"b": 1}', '{"a": [{"x": tru}]}', '{"a": 1} extra']) {
      await expect(all(fileWith(text)), text).rejects.toThrow(SyntaxError)
    }
  })
})
