/**
 * `npm run blog -- reindex-search`: rebuilds every article's search vector
 * (searchArticles.ts) in batches, oldest id first, with progress. Needed after
 * bulk imports that bypass Payload, or a change to how text is indexed; the
 * article hooks keep the index current otherwise. Safe to run on a live site:
 * each batch is one short UPDATE.
 */
import type { Payload } from 'payload'

import type { BlogCommand, CommandIO } from '../../../jobs/commands'
import { indexArticles, pool, searchDocumentOf } from './searchArticles'

const BATCH = 250

type Row = { id: number; title: string | null; excerpt: string | null; html: string | null }

export async function reindexSearch(payload: Payload, io: CommandIO): Promise<{ articles: number; ms: number }> {
  const started = Date.now()
  const db = pool(payload)
  const { rows: counted } = await db.query<{ n: string }>('select count(*) as n from articles')
  const total = Number(counted[0]!.n)
  io.progress(0, total)
  let done = 0
  let after = 0
  for (;;) {
    const { rows } = await db.query<Row>(
      'select id, title, excerpt, html from articles where id > $1 order by id limit $2',
      [after, BATCH],
    )
    if (rows.length === 0) break
    await indexArticles(payload, rows.map((r) => ({ id: r.id, ...searchDocumentOf(r) })))
    done += rows.length
    after = rows[rows.length - 1]!.id
    io.progress(Math.min(done, total), Math.max(total, done))
  }
  return { articles: done, ms: Date.now() - started }
}

export const reindexSearchCommand: BlogCommand = {
  name: 'reindex-search',
  description: 'Rebuild the full-text search index of every article.',
  async run(payload: Payload, io: CommandIO): Promise<string> {
    const { articles, ms } = await reindexSearch(payload, io)
    return `Reindexed ${articles} ${articles === 1 ? 'article' : 'articles'} for search in ${(ms / 1000).toFixed(1)} s.`
  },
}
