/** The jobs plugin's own housekeeping: `schedule_runs` (the claims of `schedule:run`) keeps 30 days. */
import { poolOf } from '../src/lib/pool'
import type { BlogSchedule } from './commands'

export const pruneScheduleRuns: BlogSchedule = {
  name: 'prune-schedule-runs',
  description: 'Forget schedule:run claims older than 30 days',
  cron: '30 3 * * *',
  run: async (payload) => {
    const result = await poolOf(payload).query(`delete from schedule_runs where due_at < now() - interval '30 days'`)
    const n = result.rowCount ?? 0
    return `pruned ${n} schedule run${n === 1 ? '' : 's'}`
  },
}
