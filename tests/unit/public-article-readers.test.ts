/**
 * Changing publicArticleSql changes every raw SQL reader: the definition is
 * replaced here by one that marks its output, each reader runs against a fake
 * pool that records its SQL, and every statement that reads articles by their
 * status carries the mark (and no hand-written copy of the rule).
 */
import type { Payload } from 'payload'
import { describe, expect, it, vi } from 'vitest'

const MARK = '/* public-article-rule */'

vi.mock('../../collections/Articles/access', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../collections/Articles/access')>()
  const publicArticleSql = (alias?: string, now?: string) => `${MARK} ${real.publicArticleSql(alias, now)}`
  return { ...real, publicArticleSql, PUBLIC_SQL: publicArticleSql() }
})

/** A Payload whose pool records every statement and answers with `rows` (by a pattern of the SQL). */
function recordingPayload(answers: [RegExp, unknown[]][] = []) {
  const statements: string[] = []
  const query = async (text: string) => {
    statements.push(text)
    return { rows: answers.find(([pattern]) => pattern.test(text))?.[1] ?? [{}], rowCount: 0 }
  }
  const client = { query, release: () => {} }
  const payload = {
    db: { pool: { query, connect: async () => client } },
    kv: { get: async () => null, set: async () => {} },
    find: async () => ({ docs: [] }),
    logger: { warn: () => {}, error: () => {} },
  } as unknown as Payload
  return { payload, statements }
}

/** The statements that decide visibility by status: each must be built from the (marked) definition. */
function expectEveryStatusReadMarked(statements: string[]) {
  const reading = statements.filter((s) => /'published'/.test(s))
  expect(reading.length).toBeGreaterThan(0)
  for (const statement of reading) expect(statement).toContain(MARK)
}

const ignoreFakeRows = (promise: Promise<unknown>) => promise.catch(() => undefined)

// Importing a reader loads much of the app: slow on a busy machine, not a failure.
describe('every raw SQL reader builds the public-article rule from publicArticleSql', { timeout: 120_000 }, () => {
  it('search', async () => {
    const { searchArticles } = await import('../../src/plugins/search/searchArticles')
    const { payload, statements } = recordingPayload([
      [/numnode/, [{ words: 1, articles: 10 }]],
      [/explain/, [{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': 1 } }] }]],
      [/with hits/, [{ id: 1, total: '1' }]],
    ])
    await ignoreFakeRows(searchArticles(payload, { q: 'word' }))
    expectEveryStatusReadMarked(statements)
    expect(statements.filter((s) => s.includes(MARK)).length).toBeGreaterThanOrEqual(3) // estimate, ranking, the hits' own check
  })

  it('the sitemap', async () => {
    const { sitemapRoot } = await import('../../frontend/src/lib/sitemap')
    const { payload, statements } = recordingPayload()
    await ignoreFakeRows(sitemapRoot('https://blog.example', { payload, max: 1 }))
    expectEveryStatusReadMarked(statements)
  })

  it('the active users', async () => {
    const { rankActiveUsers } = await import('../../src/plugins/activity/activeUsers')
    const { payload, statements } = recordingPayload([[/with scores/, []]])
    await ignoreFakeRows(rankActiveUsers(payload))
    expectEveryStatusReadMarked(statements)
  })

  it('scheduled publishing', async () => {
    const { publishScheduled } = await import('../../src/plugins/activity/publishScheduled')
    const { payload, statements } = recordingPayload([[/from articles/, []]])
    await ignoreFakeRows(publishScheduled(payload, { log: () => {}, progress: () => {} } as never))
    expectEveryStatusReadMarked(statements)
  })

  it('the dashboard counts', async () => {
    const { loadTotals, loadCategories } = await import('../../src/plugins/dashboard/queries')
    const { payload, statements } = recordingPayload()
    const q = { period: 'day', timeZone: 'UTC', now: new Date(), scope: { kind: 'author', authorId: 1 }, direct: true } as const
    await ignoreFakeRows(loadTotals(payload, q))
    await ignoreFakeRows(loadCategories(payload, q))
    expectEveryStatusReadMarked(statements)
  })

  it('tag lists', async () => {
    const { publicArticlesWithTag } = await import('../../collections/Articles/taggedLists')
    const { payload, statements } = recordingPayload()
    await ignoreFakeRows(publicArticlesWithTag(payload, 1, { page: 1, limit: 10 }))
    expect(statements.some((s) => s.includes(MARK))).toBe(true)
  })
})
