/** The jobs plugin's own housekeeping: `schedule_runs` (the claims of `schedule:run`) keeps 30 days. */
import { sql } from '@payloadcms/db-postgres'

import type { BlogSchedule } from './commands'

export const pruneScheduleRuns: BlogSchedule = {
  name: 'prune-schedule-runs',
  description: 'Forget schedule:run claims older than 30 days',
  cron: '30 3 * * *',
  run: async (payload) => {
    const result = (await payload.db.drizzle.execute(
      sql`delete from schedule_runs where due_at < now() - interval '30 days'`,
    )) as unknown as { rowCount?: number }
    const n = result.rowCount ?? 0
    return `pruned ${n} schedule run${n === 1 ? '' : 's'}`
  },
}
