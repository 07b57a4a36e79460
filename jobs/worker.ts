/**
 * Starts pg-boss for a Payload instance: a queue (retries with exponential
 * backoff, a dead-letter queue) for every registered job and schedule, the
 * schedules themselves (pg-boss cron, so each fires once however many
 * processes run), and, when `work` is set, the workers. Several processes may
 * work one database; pg-boss hands each job to exactly one of them.
 *
 * In sync mode there is no pg-boss: jobs run in-process after their write
 * commits (jobs/queue.ts), and a working process runs the schedules each
 * minute itself (jobs/minuteScheduler.ts).
 *
 * The jobs plugin calls this from `onInit`; scripts never do.
 */
import type { Payload } from 'payload'
import { PgBoss, type WorkOptions } from 'pg-boss'

import { registeredCommands, type BlogSchedule, type JobDefinition } from './commands'
import { workerIO } from './io'
import { startMinuteScheduler } from './minuteScheduler'
import { observeJob } from './observeJob'
import { syncJobsIdle, syncJobsWaitingForRetry } from './queue'
import { retriesFor, type RetryPolicy } from './retryPolicy'

export type RunningQueue = { boss?: PgBoss; stop: () => Promise<void> }

export type QueueOptions = {
  connection: 'sync' | 'pgboss'
  databaseUrl: string
  /** Run workers and the schedules in this process (in sync mode, the minute scheduler: jobs/minuteScheduler.ts). */
  work: boolean
  /** Time zone of every cron expression (APP_TIMEZONE). */
  timeZone: string
  /** How jobs that talk to other systems (`external`) are retried (JOB_RETRY_*). */
  retry: RetryPolicy
}

export const deadLetterQueue = (name: string) => `${name}.dead`

/**
 * NOTIFY wakes a worker when a job is created; retries (after their backoff)
 * and backlogs are found by polling, so the backstop poll stays short and a
 * backlog is drained without pauses.
 */
const WORK_OPTIONS = { batchSize: 1, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1, burstWhenReadyExceeds: 1 } satisfies WorkOptions

/**
 * How `concurrency` jobs of a queue are kept running in a process: a few
 * fetch loops, each taking a batch of jobs in one query and settling them in
 * one more (pg-boss's perJobResults), instead of one loop per job with a fetch
 * and a completion each. Two loops, so a slow job holds back half the slots,
 * not all of them, while the next batch is fetched.
 */
export function fetchShape(concurrency: number): { loops: number; batchSize: number } {
  if (concurrency <= 2) return { loops: concurrency, batchSize: 1 }
  return { loops: 2, batchSize: Math.ceil(concurrency / 2) }
}

/** On shutdown, sync-mode jobs already running finish (their retries included), up to 20 s. */
const SYNC_DRAIN_MS = 20_000

export async function startQueue(payload: Payload, options: QueueOptions): Promise<RunningQueue> {
  if (options.connection === 'sync') {
    const schedules = options.work ? startMinuteScheduler(payload, { timeZone: options.timeZone }) : undefined
    const idle = async () => void (await Promise.all([schedules?.stop(), syncJobsIdle()]))
    const stop = async () => {
      await Promise.race([idle(), new Promise<void>((r) => setTimeout(r, SYNC_DRAIN_MS).unref())])
      // In-memory retries end with the process: say which, so they can be run again by hand.
      for (const job of syncJobsWaitingForRetry()) payload.logger.error(`sync-mode job not retried (the process stopped), run it again with: npm run blog -- job ${job}`)
    }
    return { stop }
  }
  // LISTEN/NOTIFY wakes a worker as soon as a job commits; polling stays as the fallback.
  // Supervision every 10 s: together with 10 s heartbeats, a dead worker's job is retried within ~20 s.
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: 'pgboss',
    max: 5,
    useListenNotify: true,
    superviseIntervalSeconds: 10,
    monitorIntervalSeconds: 10,
    application_name: 'inkwell-queue',
    // Only working processes watch the clock; a CLI run or a web process with WORKER=off only sends.
    schedule: options.work,
  } as never)
  boss.on('error', (error: Error) => payload.logger.error({ err: error }, 'queue error'))
  await boss.start()
  const { jobs, schedules } = registeredCommands(payload)
  for (const [name, job] of Object.entries(jobs)) await createQueue(boss, name, retryOptions(job, options.retry), job.expireInSeconds)
  for (const schedule of schedules) await registerSchedule(boss, schedule, options.timeZone)

  if (options.work) {
    for (const [name, job] of Object.entries(jobs)) {
      const { loops, batchSize } = fetchShape(job.concurrency ?? 1)
      await boss.work<unknown>(name, { ...WORK_OPTIONS, batchSize, localConcurrency: loops, includeMetadata: true, perJobResults: true }, async (batch) =>
        // The batch's jobs run side by side; each one completes, or fails and is retried, on its own.
        Promise.all(
          batch.map(async (item) => {
            const attempt = Number(item.retryCount ?? 0) + 1
            try {
              await observeJob({ name, id: item.id, attempt }, () => job.handler(payload, item.data as never))
              return { id: item.id, status: 'completed' as const }
            } catch (error) {
              // Recorded as pg-boss records a thrown error (serialize-error): the queue console shows its message.
              return { id: item.id, status: 'failed' as const, output: error }
            }
          }),
        ),
      )
    }
    for (const schedule of schedules) {
      await boss.work(schedule.name, WORK_OPTIONS, async () => {
        const summary = await schedule.run(payload, workerIO(payload, schedule.name))
        payload.logger.info(`${schedule.name}: ${summary}`)
      })
    }
    payload.logger.info(`Queue workers running (pg-boss): ${[...Object.keys(jobs), ...schedules.map((s) => s.name)].join(', ') || 'none'}`)
  }
  return {
    boss,
    // Graceful: in-flight jobs finish (or return to the queue after the timeout); nothing is lost.
    stop: () => boss.stop({ graceful: true, timeout: 20_000 }),
  }
}

type RetryOptions = { retryLimit: number; retryDelay: number; retryDelayMax: number }

/**
 * A job that talks to another system retries for the retry window (jobs/retryPolicy.ts);
 * any other job its own `tries`, quickly (1 s, 2 s, 4 s…, at most 5 min apart).
 * pg-boss adds the jitter: each delay is drawn between its nominal value and twice that.
 */
export function retryOptions(job: JobDefinition<never> | { tries: number; external?: false }, policy: RetryPolicy): RetryOptions {
  if (job.external) return { retryLimit: retriesFor(policy), retryDelay: policy.delaySeconds, retryDelayMax: policy.maxDelaySeconds }
  return { retryLimit: job.tries - 1, retryDelay: 1, retryDelayMax: 300 }
}

async function createQueue(boss: PgBoss, name: string, retry: RetryOptions, expireInSeconds?: number): Promise<void> {
  await boss.createQueue(deadLetterQueue(name))
  const options = {
    ...retry,
    retryBackoff: true,
    deadLetter: deadLetterQueue(name),
    notify: true,
    // A worker that dies mid-job stops heartbeating; its job is retried after 10 s, not the 15-minute expiry.
    heartbeatSeconds: 10,
    // The heartbeat does not lift the expiry: a run still alive after it is failed (JobDefinition.expireInSeconds).
    ...(expireInSeconds ? { expireInSeconds } : {}),
  }
  await boss.createQueue(name, options as never)
  // An existing queue keeps the options it was created with: apply the configured policy (new jobs take it).
  await boss.updateQueue(name, options as never)
}

/**
 * pg-boss keeps one row per schedule name in `pgboss.schedule` and its cron
 * monitor (one process at a time, by lock) sends one job per occurrence, so
 * any number of processes can register the same schedule.
 */
async function registerSchedule(boss: PgBoss, schedule: BlogSchedule, timeZone: string): Promise<void> {
  // A scheduled run that fails is not retried on a loop: the next occurrence does the work again.
  await createQueue(boss, schedule.name, retryOptions({ tries: 1 }, { windowSeconds: 0, delaySeconds: 1, maxDelaySeconds: 1 }))
  await boss.schedule(schedule.name, schedule.cron, null, { tz: timeZone })
}
