/**
 * Background work, owned by Payload's lifecycle: whatever starts a Payload
 * instance (`npm start`, `npm run worker`, `npm run blog`, a test, the Next
 * bundle) gets the configured queue, never a silent fallback to sync mode.
 *
 *  - onInit: jobs may run after the writing transaction commits; in pgboss mode
 *    pg-boss starts, creates a queue per registered job and schedule, registers
 *    the schedules (pg-boss cron) and, when `work` is set, runs the workers.
 *  - payload.destroy(): the workers finish in-flight jobs (or return them to the
 *    queue), then Payload closes the database as usual.
 *
 * The jobs, schedules and commands themselves come from the feature plugins
 * (`addJobs`, `addSchedules`, `addCommands` in jobs/commands.ts).
 */
import { EventEmitter } from 'node:events'

import type { Config, Plugin } from 'payload'

import { addSchedules } from '../../../jobs/commands'
import { pruneScheduleRuns } from '../../../jobs/pruneScheduleRuns'
import { attachQueue } from '../../../jobs/queue'
import { startQueue, type QueueOptions } from '../../../jobs/worker'
import { installAfterCommit, onDestroy } from '../../lib/payloadPatches'
import { queueConsoleAdmin } from './admin/queueConsoleAdmin'

export type JobsOptions = QueueOptions & { syncRetryScale: number }

export const jobsPlugin =
  (options: JobsOptions): Plugin =>
  (config: Config): Config => ({
    ...queueConsoleAdmin(addSchedules(config, [pruneScheduleRuns])),
    onInit: async (payload) => {
      await config.onInit?.(payload)
      installAfterCommit(payload, (error) => payload.logger.error({ err: error }, 'background job failed'))
      const queue = await startQueue(payload, options)
      attachQueue(payload, { mode: options.connection, boss: queue.boss, syncRetryScale: options.syncRetryScale, retry: options.retry, events: new EventEmitter() })
      onDestroy(payload, async () => {
        await queue.stop()
        attachQueue(payload, undefined)
      })
    },
  })
