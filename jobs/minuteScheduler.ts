/**
 * The schedules in sync mode (QUEUE_CONNECTION=sync, the default install).
 * pg-boss's cron is not there, and a new user has no system cron: a process
 * that works (WORKER=on: `npm start`) runs, at the start of every minute, what
 * `npm run blog -- schedule:run` runs — each schedule due in that minute, once
 * across every process on the database (the `schedule_runs` claim), so two web
 * processes, or a system cron added later, never run an occurrence twice.
 */
import type { Payload } from 'payload'

import { workerIO } from './io'
import { runDueSchedules } from './scheduleRun'

/** Past the minute's start, so the minute read from the clock is the one that began. */
const AFTER_MINUTE_MS = 50

export type MinuteScheduler = { stop: () => Promise<void> }

export function startMinuteScheduler(payload: Payload, { timeZone }: { timeZone: string }): MinuteScheduler {
  const running = new Set<Promise<void>>()
  let timer: NodeJS.Timeout | undefined
  let stopped = false

  const runMinute = async (now: Date) => {
    try {
      const summary = await runDueSchedules(payload, { now, timeZone, io: (name) => workerIO(payload, name) })
      payload.logger.debug(summary)
    } catch (error) {
      // The database was unreachable, say: the next minute tries again (publish-scheduled covers the gap).
      payload.logger.error({ err: error }, 'schedules: this minute could not run')
    }
  }
  const arm = () => {
    timer = setTimeout(tick, 60_000 - (Date.now() % 60_000) + AFTER_MINUTE_MS)
    timer.unref()
  }
  // A schedule still running does not hold up the next minute's others (each occurrence has its own claim).
  const tick = () => {
    if (stopped) return
    const run = runMinute(new Date()).finally(() => running.delete(run))
    running.add(run)
    arm()
  }
  arm()
  return {
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      await Promise.allSettled([...running])
    },
  }
}
