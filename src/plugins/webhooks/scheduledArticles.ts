/**
 * `article.published` for a scheduled article when its time comes. Nothing is
 * saved at that moment, so no hook fires: this per-minute schedule records the
 * event for every article whose publish time passed since its last run and that
 * was last saved before that time (one saved after it was public at the save,
 * and got its event from the save's hook). The last run's time is kept in
 * Payload's key-value store, as `publish-scheduled` keeps its own, so a late
 * run covers the gap; the first run starts from now (no replay of history).
 */
import { createLocalReq, type Payload } from 'payload'

import { publicArticleSql } from '../../../collections/Articles/access'
import { poolOf } from '../../lib/pool'
import { inTransaction } from './endpoints'
import { articleData } from './eventHooks'
import { recordEvent } from './record'

const WATERMARK_KEY = 'inkwell:webhooks:scheduled-through'

export async function announceScheduledArticles(payload: Payload, now = new Date()): Promise<string> {
  const stored = await payload.kv.get<{ at: string }>(WATERMARK_KEY)
  const since = stored?.at ? new Date(stored.at) : now
  const { rows } = await poolOf(payload).query<{ id: number }>(
    `select id from articles where ${publicArticleSql('', '$2')} and published_at > $1 and updated_at < published_at order by published_at`,
    [since.toISOString(), now.toISOString()],
  )
  if (rows.length) {
    const { docs } = await payload.find({ collection: 'articles', where: { id: { in: rows.map((r) => r.id) } }, depth: 0, limit: rows.length, pagination: false, overrideAccess: true })
    const req = await createLocalReq({}, payload)
    await inTransaction(req, async () => {
      for (const doc of docs) await recordEvent(req, 'article.published', articleData(doc as unknown as Record<string, unknown>))
    })
  }
  if (now > since || !stored?.at) await payload.kv.set(WATERMARK_KEY, { at: now.toISOString() })
  return `${rows.length} scheduled article(s) announced as published`
}
