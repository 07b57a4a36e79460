/**
 * `npm run blog -- recount-unread-notifications`: recomputes every user's
 * unread badge from the notifications table. The hooks keep it right on every
 * change; this repairs it after rows were changed by hand in SQL.
 */
import type { BlogCommand } from '../../../jobs/commands'
import { query } from '../../lib/pool'

const BATCH = 500

export const recountUnreadCommand: BlogCommand = {
  name: 'recount-unread-notifications',
  description: 'Recount every user’s unread-notification badge from the notifications table',
  run: async (payload, io) => {
    const total = Number((await query<{ n: number }>(payload, `select count(*)::int as n from users`))[0]!.n)
    let done = 0
    let changed = 0
    let afterId = 0
    io.progress(0, total)
    for (;;) {
      // Keyset batches: each statement touches at most BATCH users, so no long lock on the whole table.
      const [batch] = await query<{ last_id: number | null; seen: number; changed: number }>(
        payload,
        `with batch as (select id from users where id > $1 order by id limit $2),
          counted as (
            select b.id, (select count(*) from notifications n where n.recipient_id = b.id and n.read_at is null)::int as unread
            from batch b
          ),
          updated as (
            update users u set unread_notifications = c.unread from counted c
            where u.id = c.id and u.unread_notifications is distinct from c.unread returning u.id
          )
          select (select max(id) from batch) as last_id, (select count(*) from batch)::int as seen, (select count(*) from updated)::int as changed`,
        [afterId, BATCH],
      )
      if (!batch?.seen) break
      afterId = Number(batch.last_id)
      done += Number(batch.seen)
      changed += Number(batch.changed)
      io.progress(Math.min(done, total), total)
    }
    return `recounted ${done} users, ${changed} badge${changed === 1 ? '' : 's'} corrected`
  },
}
