/**
 * "Public article" has one SQL definition, publicArticleSql in
 * collections/Articles/access.ts (beside publicNow, its Payload form): every
 * raw SQL reader builds its condition from it, so changing the definition
 * changes every reader. This scans the source for the rule written out by
 * hand and lists each offender. Integration tests prove the readers honour it:
 * a scheduled (future) article is absent from search (search.test.ts), the
 * sitemap (sitemap.test.ts), the active users and every public path
 * (activity-postgres.test.ts) and the dashboard counts (dashboard.test.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

import { describe, expect, it } from 'vitest'

import { PUBLIC_SQL, publicArticleSql } from '../../collections/Articles/access'

const ROOT = join(__dirname, '../..')
const SCANNED = ['src', 'collections', 'hooks', 'jobs', 'frontend/src', 'bench', 'scripts', 'payload.config.ts']
/** Where the rule may be written out, and why. */
const ALLOWED: Record<string, string> = {
  'collections/Articles/access.ts': 'the definition (and COUNTED_NOT_YET_PUBLIC_SQL, the published rows it hides by time)',
  'src/seed/content.ts': 'a code sample inside a demo article, not a query',
  'bench/dashboard.ts': 'seeds view rows for published articles; reads no public list',
  'src/plugins/drafts/publishedState.ts': 'finds an article’s pending draft (is the row published, is the draft newer); reads no public list',
  'collections/Replies/access.ts': 'publicReplySql, the one SQL definition of a public reply (its state is spelled like an article’s)',
}
/** The rule's parts as a hand-written query would spell them. */
const RULE = /status\s*(?:=|<>|!=)\s*'published'|published_at\s*<=?\s*(?:now\(\)|\$\d)/

function files(path: string): string[] {
  const full = join(ROOT, path)
  if (statSync(full, { throwIfNoEntry: false }) === undefined) return []
  if (!statSync(full).isDirectory()) return /\.(ts|tsx|mts|astro)$/.test(path) ? [path] : []
  return readdirSync(full).flatMap((name) => (name === 'node_modules' || name === 'migrations' ? [] : files(join(path, name))))
}

describe('the public-article rule in SQL', () => {
  it('is built by publicArticleSql, for any row name and any moment', () => {
    expect(PUBLIC_SQL).toBe(publicArticleSql('a'))
    expect(publicArticleSql('s')).toBe(`s.status = 'published' and s.published_at <= now()`)
    expect(publicArticleSql('', '$1::timestamptz')).toBe(`status = 'published' and published_at <= $1::timestamptz`)
  })

  it('is written out nowhere else (migrations are frozen and keep their own copy)', () => {
    const offenders = SCANNED.flatMap(files)
      .filter((file) => !(relative('', file) in ALLOWED))
      .flatMap((file) =>
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .map((line, i) => (RULE.test(line) ? `${file}:${i + 1}: ${line.trim()}` : ''))
          .filter(Boolean),
      )
    expect(offenders).toEqual([])
  })
})
