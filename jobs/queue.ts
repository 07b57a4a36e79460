/**
 * The one way to enqueue background work.
 *
 *  QUEUE_CONNECTION=sync    the handler runs in this process right after the
 *                           write commits (never inside the transaction, so a
 *                           failing mail cannot roll back a reply).
 *  QUEUE_CONNECTION=pgboss  the job is inserted through the writing transaction
 *                           itself (it exists if and only if the write commits)
 *                           and pg-boss workers run it, with retries, backoff
 *                           and a dead-letter queue.
 *
 * The mode and the pg-boss instance belong to the Payload instance: the jobs
 * plugin (src/plugins/jobs) attaches them in `onInit` and detaches them on
 * `payload.destroy()`. They are kept on the instance under a registered symbol,
 * not in a module variable, because hooks may run from the Next bundle's own
 * copy of this module while the instance is shared.
 */
import type { EventEmitter } from 'node:events'

import type { Payload, PayloadRequest } from 'payload'
import type { PgBoss } from 'pg-boss'

import { transactionDb } from '../src/lib/pool'
import { afterCommit } from '../src/lib/payloadPatches'
import { processShared } from '../src/lib/processShared'
import { registeredCommands, type JobDefinition } from './commands'
import type { JobData, JobName } from './definitions'
import { observeJob } from './observeJob'
import { jitteredDelayMs, retriesFor, type RetryPolicy } from './retryPolicy'

export type QueueMode = 'sync' | 'pgboss'
export type QueueState = {
  mode: QueueMode
  boss?: PgBoss
  /** Sync mode retries in place after 1 s, 2 s, 4 s… times this (SYNC_RETRY_SCALE; tests shorten it). */
  syncRetryScale: number
  /** How jobs that talk to other systems are retried, in both modes (JOB_RETRY_*; jobs/retryPolicy.ts). */
  retry: RetryPolicy
  /** Sync mode emits 'retry' ({ name, attempt, error }) when a try fails and another will follow. */
  events: EventEmitter
}

const STATE = Symbol.for('inkwell.queue')
type WithQueue = { [STATE]?: QueueState }

export function attachQueue(payload: Payload, state: QueueState | undefined): void {
  ;(payload as unknown as WithQueue)[STATE] = state
}

/**
 * The queue of this Payload instance. Throws when the jobs plugin has not
 * started it, so a process can never fall back to sync mode by accident.
 */
export function queueOf(payload: Payload): QueueState {
  const state = (payload as unknown as WithQueue)[STATE]
  if (!state) throw new Error('The queue is not running: the jobs plugin starts it in onInit (was Payload started with disableOnInit, or destroyed?)')
  return state
}

export function jobDefinition(payload: Payload, name: string): JobDefinition<unknown> {
  const job = registeredCommands(payload).jobs[name]
  if (!job) throw new Error(`Unknown job "${name}": no plugin registered it with addJobs()`)
  return job as JobDefinition<unknown>
}

/** pg-boss's database interface over the request's transaction connection. */
async function transactionExecutor(req: PayloadRequest) {
  const db = (await transactionDb(req)) as unknown as { session?: { client?: { query: Function } }; $client?: { query: Function } }
  const client = db.session?.client ?? db.$client
  if (!client) throw new Error('No database connection to enqueue through')
  return {
    executeSql: (text: string, values?: unknown[]) => client.query(text, values) as Promise<{ rows: unknown[] }>,
  }
}

export async function enqueue<N extends JobName>(
  req: PayloadRequest,
  name: N,
  data: JobData[N],
  { key }: { key: string },
): Promise<void> {
  const payload = req.payload
  const queue = queueOf(payload)
  jobDefinition(payload, name) // an unknown name fails here, in the writing request, not later in a worker
  if (queue.mode === 'pgboss') {
    await queue.boss!.send(name, data as object, { singletonKey: key, db: await transactionExecutor(req) })
    return
  }
  await afterCommit(req, () => track(runWithRetries(payload, name, data)))
}

// ---- sync mode: in-process retries, and a way to wait for in-flight jobs ----

// Shared by every module copy in the process, so syncJobsIdle() sees jobs enqueued from the Next bundle too.
const running = processShared('syncJobs', () => new Set<Promise<void>>())

function track(job: Promise<void>): Promise<void> {
  running.add(job)
  return job.finally(() => running.delete(job))
}

/** Resolves when every sync-mode job running now (and any they start) has settled. */
export async function syncJobsIdle(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running])
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Sync mode has no queue to retry from, so it retries in place, in memory:
 * a job that talks to another system (`external`) for the retry window with
 * the same backoff and jitter as pg-boss, any other one its `tries` after
 * 1 s, 2 s, 4 s, …; every delay times SYNC_RETRY_SCALE. The retries live as
 * long as the process: one still waiting when the process stops is logged
 * (job name and data) so it can be run again with `npm run blog -- job`.
 */
async function runWithRetries<N extends JobName>(payload: PayloadRequest['payload'], name: N, data: JobData[N]): Promise<void> {
  const definition = jobDefinition(payload, name)
  const { retry, syncRetryScale } = queueOf(payload)
  const tries = definition.external ? retriesFor(retry) + 1 : definition.tries
  for (let attempt = 1; ; attempt++) {
    try {
      return await observeJob({ name, attempt }, () => definition.handler(payload, data as never))
    } catch (error) {
      if (attempt >= tries) {
        payload.logger.error({ err: error, job: name, data }, `job ${name} failed after ${tries} tries`)
        return
      }
      payload.logger.warn(`job ${name} failed (try ${attempt} of ${tries}), retrying: ${(error as Error).message}`)
      queueOf(payload).events.emit('retry', { name, attempt, error })
      const wait = definition.external ? jitteredDelayMs(retry, attempt) : 1000 * 2 ** (attempt - 1)
      waitingRetries.add(retryNote(name, data))
      try {
        await delay(wait * syncRetryScale)
      } finally {
        waitingRetries.delete(retryNote(name, data))
      }
      // The queue stopped meanwhile (the process is shutting down): it logged this job as not retried.
      if (!(payload as unknown as WithQueue)[STATE]) return
    }
  }
}

// Sync-mode jobs waiting for their next try, as `name data` (what `npm run blog -- job` takes).
const waitingRetries = processShared('syncJobsWaiting', () => new Set<string>())
const retryNote = (name: string, data: unknown) => `${name} '${JSON.stringify(data)}'`

/** Sync-mode jobs still waiting for a retry (at shutdown: they will not be tried again by this process). */
export function syncJobsWaitingForRetry(): string[] {
  return [...waitingRetries]
}
