/**
 * The reader site reaches Payload only through frontend/src/lib/api/ (issue 25):
 * no other file of the site takes the Payload instance, imports Payload's
 * runtime, or fetches /api; and components receive their data as props (from
 * lib/api they take types and the pure helpers of refs.ts, never a read).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const SITE = join(__dirname, '../../frontend/src')
const API = join(SITE, 'lib/api')

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourcesUnder(path)
    return /\.(ts|mts|js|mjs|astro)$/.test(entry.name) ? [path] : []
  })
}

/** What only lib/api/ may do: each rule with the pattern that finds it. */
const REACHING_PAYLOAD: [string, RegExp][] = [
  ['takes the Payload instance (sitePayload)', /\bsitePayload\b/],
  ["imports Payload's runtime", /^\s*import\s+(?!type\b)[^;]*?from\s+['"]payload['"]/m],
  ['boots Payload (getPayload)', /\bgetPayload\b/],
  ['fetches the API', /\bfetch\s*\([^)]*\/api\b/],
]

describe('the reader site reaches Payload only through lib/api/', () => {
  const outside = sourcesUnder(SITE).filter((path) => !path.startsWith(API + '/'))

  it('finds the site sources (the scan itself works)', () => {
    expect(outside.length).toBeGreaterThan(20)
    expect(outside.some((path) => path.endsWith('pages/index.astro'))).toBe(true)
  })

  it('no file outside lib/api/ takes the Payload instance, imports Payload or fetches /api', () => {
    const breaches = outside.flatMap((path) => {
      const text = readFileSync(path, 'utf8')
      return REACHING_PAYLOAD.filter(([, pattern]) => pattern.test(text)).map(([rule]) => `${relative(SITE, path)} ${rule}`)
    })
    expect(breaches).toEqual([])
  })

  it('the rules catch what they are for', () => {
    const caught = (text: string) => REACHING_PAYLOAD.filter(([, pattern]) => pattern.test(text)).length
    expect(caught("import { sitePayload } from '../../../src/lib/sitePayload'")).toBeGreaterThan(0)
    expect(caught("import { getPayload } from 'payload'")).toBe(2)
    expect(caught("const res = await fetch(`${origin}/api/articles`)")).toBe(1)
    expect(caught("import type { Payload } from 'payload'")).toBe(0)
  })

  it('components import from lib/api only types and the pure helpers: pages read, components receive', () => {
    const refs = readFileSync(join(API, 'refs.ts'), 'utf8')
    const pure = new Set([...refs.matchAll(/export (?:function|const) (\w+)|export \{ (\w+) \}/g)].map((m) => m[1] ?? m[2]))
    pure.add('NEW_ARTICLE_PATH')
    const reads = sourcesUnder(join(SITE, 'components')).flatMap((path) => {
      const text = readFileSync(path, 'utf8')
      const names = [...text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+['"][./]*lib\/api['"]/g)]
        .filter((m) => !m[1])
        .flatMap((m) => m[2]!.split(',').map((name) => name.trim()))
        .filter((name) => name && !name.startsWith('type ') && !pure.has(name))
      return names.map((name) => `${relative(SITE, path)} reads ${name}`)
    })
    expect(pure.has('avatarUrl')).toBe(true)
    expect(reads).toEqual([])
  })
})
