/**
 * Starts the queue for this process. In `pgboss` mode it creates the queues
 * (retries with exponential backoff, a dead-letter queue each) and, when
 * `work` is set, runs their workers; several processes may work one database,
 * and pg-boss hands each job to exactly one of them.
 */
import type { Payload } from 'payload'
import { PgBoss, type WorkOptions } from 'pg-boss'

import type { Env } from '../src/lib/env'
import { JOBS, type JobName } from './definitions'
import { installQueue, syncJobsIdle } from './queue'

export type RunningQueue = { boss?: PgBoss; stop: () => Promise<void> }

export const deadLetterQueue = (name: string) => `${name}.dead`

/**
 * NOTIFY wakes a worker when a job is created; retries (after their backoff)
 * and backlogs are found by polling, so the backstop poll stays short and a
 * backlog is drained without pauses.
 */
const WORK_OPTIONS = { batchSize: 1, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1, burstWhenReadyExceeds: 1 } satisfies WorkOptions

export async function startQueue(
  payload: Payload,
  env: Env,
  { work, log, install = true }: { work: boolean; log: (m: string) => void; install?: boolean },
): Promise<RunningQueue> {
  if (env.queueConnection === 'sync') {
    installQueue('sync')
    // On shutdown, let jobs already running finish (their retries included).
    return { stop: () => Promise.race([syncJobsIdle(), new Promise<void>((r) => setTimeout(r, 20_000).unref())]) }
  }
  // LISTEN/NOTIFY wakes a worker as soon as a job commits; polling stays as the fallback.
  // Supervision every 10 s: together with 10 s heartbeats, a dead worker's job is retried within ~20 s.
  const boss = new PgBoss({
    connectionString: env.databaseUrl,
    schema: 'pgboss',
    max: 5,
    useListenNotify: true,
    superviseIntervalSeconds: 10,
    monitorIntervalSeconds: 10,
    application_name: 'inkwell-queue',
  } as never)
  boss.on('error', (error: Error) => payload.logger.error({ err: error }, 'queue error'))
  await boss.start()
  for (const name of Object.keys(JOBS) as JobName[]) {
    await boss.createQueue(deadLetterQueue(name))
    await boss.createQueue(name, {
      retryLimit: JOBS[name].tries - 1,
      retryDelay: 1,
      retryBackoff: true,
      retryDelayMax: 300,
      deadLetter: deadLetterQueue(name),
      notify: true,
      // A worker that dies mid-job stops heartbeating; its job is retried after 10 s, not the 15-minute expiry.
      heartbeatSeconds: 10,
    } as never)
  }
  if (install) installQueue('pgboss', boss)
  if (work) {
    for (const name of Object.keys(JOBS) as JobName[]) {
      await boss.work<unknown>(name, WORK_OPTIONS, async (jobs) => {
        for (const job of jobs) await JOBS[name].handler(payload, job.data as never)
      })
    }
    log(`Queue workers running (pg-boss): ${Object.keys(JOBS).join(', ')}`)
  }
  return {
    boss,
    // Graceful: in-flight jobs finish (or return to the queue after the timeout); nothing is lost.
    stop: () => boss.stop({ graceful: true, timeout: 20_000 }),
  }
}
