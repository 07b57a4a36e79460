/**
 * `npm run blog -- schedule:run`, for hosts that prefer a per-minute system
 * cron to pg-boss's scheduler (`* * * * * cd /srv/inkwell && npm run blog -- schedule:run`):
 * runs every registered schedule due in the current minute, once.
 *
 * "Once" across hosts: before running, each schedule occurrence is claimed by
 * inserting (name, minute) into `schedule_runs`; the primary key lets exactly
 * one inserter win, and a second run in the same minute (here or on another
 * host) finds the claim taken and skips it.
 */
import { CronExpressionParser } from 'cron-parser'
import type { Payload } from 'payload'

import { query } from '../src/lib/pool'
import { registeredCommands, type BlogSchedule, type CommandIO } from './commands'

export function startOfMinute(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 60_000) * 60_000)
}

/** Whether `cron`, read in `timeZone`, has an occurrence at `minute` (a whole minute). */
export function isDue(cron: string, minute: Date, timeZone: string): boolean {
  const next = CronExpressionParser.parse(cron, { tz: timeZone, currentDate: new Date(minute.getTime() - 1_000) }).next().toDate()
  return next.getTime() === minute.getTime()
}

async function claim(payload: Payload, schedule: BlogSchedule, minute: Date): Promise<boolean> {
  const rows = await query(
    payload,
    `insert into schedule_runs (name, due_at) values ($1, $2) on conflict do nothing returning name`,
    [schedule.name, minute.toISOString()],
  )
  return rows.length === 1
}

async function finish(payload: Payload, schedule: BlogSchedule, minute: Date, summary: string): Promise<void> {
  await query(payload, `update schedule_runs set finished_at = now(), summary = $3 where name = $1 and due_at = $2`, [
    schedule.name,
    minute.toISOString(),
    summary,
  ])
}

export async function runDueSchedules(
  payload: Payload,
  { now = new Date(), timeZone, io }: { now?: Date; timeZone: string; io: (name: string) => CommandIO },
): Promise<string> {
  const minute = startOfMinute(now)
  const due = registeredCommands(payload).schedules.filter((s) => isDue(s.cron, minute, timeZone))
  let ran = 0
  let failed = 0
  let skipped = 0
  for (const schedule of due) {
    const out = io(schedule.name)
    if (!(await claim(payload, schedule, minute))) {
      out.log(`${schedule.name}: already run for ${minute.toISOString()}, skipped`)
      skipped++
      continue
    }
    try {
      const summary = await schedule.run(payload, out)
      await finish(payload, schedule, minute, summary)
      out.log(`${schedule.name}: ${summary}`)
      ran++
    } catch (error) {
      // Not retried within the minute: the claim stays, the next occurrence does the work.
      await finish(payload, schedule, minute, `failed: ${(error as Error).message}`)
      out.log(`${schedule.name}: failed: ${(error as Error).message}`)
      failed++
    }
  }
  return `schedule:run ${minute.toISOString()}: ${due.length} due, ${ran} ran, ${skipped} already run elsewhere, ${failed} failed`
}
