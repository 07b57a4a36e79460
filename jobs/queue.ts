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
 * The pg-boss instance is process-wide (globalThis): hooks may run in the Next
 * bundle, which has its own copy of this module.
 */
import type { PayloadRequest } from 'payload'
import type { PgBoss } from 'pg-boss'

import { transactionDb } from '../hooks/lockTransaction'
import { afterCommit } from './afterCommit'
import { JOBS, type JobData, type JobName } from './definitions'

const g = globalThis as unknown as { __inkwellBoss?: PgBoss; __inkwellQueueMode?: 'sync' | 'pgboss' }

export function installQueue(mode: 'sync' | 'pgboss', boss?: PgBoss): void {
  g.__inkwellQueueMode = mode
  g.__inkwellBoss = boss
}

export function queueMode(): 'sync' | 'pgboss' {
  return g.__inkwellQueueMode ?? 'sync'
}

export function currentBoss(): PgBoss | undefined {
  return g.__inkwellBoss
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
  const boss = currentBoss()
  if (queueMode() === 'pgboss' && boss) {
    await boss.send(name, data, { singletonKey: key, db: await transactionExecutor(req) })
    return
  }
  const payload = req.payload
  await afterCommit(req, () => track(runWithRetries(payload, name, data)))
}

// ---- sync mode: in-process retries, and a way to wait for in-flight jobs ----

const running = ((globalThis as unknown as { __inkwellSyncJobs?: Set<Promise<void>> }).__inkwellSyncJobs ??= new Set())

function track(job: Promise<void>): Promise<void> {
  running.add(job)
  return job.finally(() => running.delete(job))
}

/** Resolves when every sync-mode job running now (and any they start) has settled. */
export async function syncJobsIdle(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running])
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Sync mode has no queue to retry from, so it retries in place: 1 s, 2 s, 4 s, … */
async function runWithRetries<N extends JobName>(payload: PayloadRequest['payload'], name: N, data: JobData[N]): Promise<void> {
  const { handler, tries } = JOBS[name]
  for (let attempt = 1; ; attempt++) {
    try {
      return await handler(payload, data)
    } catch (error) {
      if (attempt >= tries) {
        payload.logger.error({ err: error, job: name, data }, `job ${name} failed after ${tries} tries`)
        return
      }
      payload.logger.warn(`job ${name} failed (try ${attempt} of ${tries}), retrying: ${(error as Error).message}`)
      await delay(1000 * 2 ** (attempt - 1) * syncRetryScale())
    }
  }
}

/** Tests shorten the backoff; production keeps seconds. */
function syncRetryScale(): number {
  const scale = Number(process.env.SYNC_RETRY_SCALE)
  return Number.isFinite(scale) && scale > 0 ? scale : 1
}
