/**
 * `publish-scheduled`, every minute. An article with status "published" and a
 * future publish time is already kept from the public by the Articles read
 * access (publishedAt <= now); nothing needs to change in its row when the
 * time comes. What does need doing is the render cache: pages, lists, feeds
 * and the sitemap cached before that time don't show it yet. This purges
 * them for every article whose publish time passed since the last run, in
 * every web process (cacheBus).
 *
 * The last run's time is kept in Payload's key-value store, so a run that
 * comes late (or twice) covers exactly the gap.
 */
import type { Payload } from 'payload'

import { publicArticleSql } from '../../../collections/Articles/access'
import type { CommandIO } from '../../../jobs/commands'
import { announceInvalidation } from '../../lib/cacheBus'
import { poolOf } from '../../lib/pool'

const WATERMARK_KEY = 'inkwell:publish-scheduled:through'
/** With no previous run, look back this far (a site just upgraded, or a fresh database). */
const FIRST_LOOKBACK_MS = 24 * 60 * 60 * 1000

export async function publishScheduled(payload: Payload, io: CommandIO, now = new Date()): Promise<string> {
  const stored = await payload.kv.get<{ at: string }>(WATERMARK_KEY)
  const since = stored?.at ? new Date(stored.at) : new Date(now.getTime() - FIRST_LOOKBACK_MS)
  const { rows } = await poolOf(payload).query<{ id: number; author_id: number | null; title: string }>(
    `select id, author_id, title from articles
      where ${publicArticleSql('', '$2')} and published_at > $1 order by published_at`,
    [since.toISOString(), now.toISOString()],
  )
  for (const [i, row] of rows.entries()) {
    io.log(`now public: #${row.id} ${row.title}`)
    io.progress(i + 1, rows.length)
  }
  const tags = [...new Set(rows.flatMap((r) => [`article:${r.id}`, ...(r.author_id ? [`user:${r.author_id}`] : [])]))]
  if (tags.length) await announceInvalidation(payload, [...tags, 'list'])
  // Only forward: a late, overlapping run never moves the watermark back.
  if (!stored?.at || now > since) await payload.kv.set(WATERMARK_KEY, { at: now.toISOString() })
  return `${rows.length} scheduled article(s) became public since ${since.toISOString()}`
}
