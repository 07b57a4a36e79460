/**
 * A migration is frozen: it carries what it needs, so its result never changes
 * when live code changes later. This scans every migration's imports and
 * allows only packages (Payload, its drizzle adapter, libraries) and the
 * migrations folder itself: nothing from src/lib, src/access, collections,
 * src/plugins or any other project code.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

import { describe, expect, it } from 'vitest'

const DIR = join(__dirname, '../../src/migrations')
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g

/** Allowed: packages, and sibling migration files (index.ts lists them); never a path out of the folder. */
function allowed(specifier: string): boolean {
  if (specifier.startsWith('./')) return !specifier.slice(2).includes('/')
  return !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('@/')
}

export function importsOf(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3])!)
}

describe('migrations are frozen', () => {
  it('finds imports of every form', () => {
    expect(importsOf(`import a from 'x'\nimport { b } from "../lib/y"\nexport * from './z'\nawait import('../../collections/w')`)).toEqual([
      'x',
      '../lib/y',
      './z',
      '../../collections/w',
    ])
    expect(allowed('../lib/excerpt')).toBe(false)
    expect(allowed('../../collections/Articles')).toBe(false)
    expect(allowed('./20261122_062745_initial')).toBe(true)
    expect(allowed('@payloadcms/db-postgres')).toBe(true)
  })

  it('no migration imports project code', () => {
    const offenders = readdirSync(DIR)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => importsOf(readFileSync(join(DIR, file), 'utf8')).filter((s) => !allowed(s)).map((s) => `${file}: ${s}`))
    expect(offenders).toEqual([])
  })
})
