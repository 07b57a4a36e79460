/**
 * Render-cache invalidation. A change is announced twice:
 *  - at once, in this process, so the writer's next request never sees the old page;
 *  - with pg_notify inside the writing transaction, which PostgreSQL delivers
 *    to every listening process only when (and if) the transaction commits,
 *    so a page rendered from pre-commit data is purged again after commit.
 * The bus is process-shared (processShared) because the Next bundle (where REST
 * writes run) and the server share the process but not module instances.
 */
import { EventEmitter } from 'node:events'

import pg from 'pg'
import type { Payload, PayloadRequest } from 'payload'

import { sql } from '@payloadcms/db-postgres'

import { query, transactionDb } from './pool'
import { processShared } from './processShared'

export const INVALIDATION_CHANNEL = 'inkwell_cache'

const bus = processShared('cacheBus', () => new EventEmitter().setMaxListeners(50))

export type InvalidationListener = (tags: string[]) => void

export function onInvalidate(listener: InvalidationListener): () => void {
  bus.on('invalidate', listener)
  return () => bus.off('invalidate', listener)
}

export function invalidateLocally(tags: string[]): void {
  if (tags.length) bus.emit('invalidate', tags)
}

/** Announce from inside a Payload hook: now in-process, and to every process on commit. */
export async function publishInvalidation(req: PayloadRequest, tags: string[]): Promise<void> {
  if (tags.length === 0) return
  invalidateLocally(tags)
  const db = await transactionDb(req)
  await db.execute(sql`select pg_notify(${INVALIDATION_CHANNEL}, ${tags.join(',')})`)
}

/**
 * LISTENs on a dedicated connection and re-emits notifications on the bus.
 * Reconnects after a lost connection, purging everything on reconnect
 * because notifications sent meanwhile were missed.
 */
export async function listenForInvalidations(
  connectionString: string,
  log: (message: string) => void,
): Promise<{ stop: () => Promise<void> }> {
  let client: pg.Client | undefined
  let stopped = false
  let retry: NodeJS.Timeout | undefined

  async function connect(first: boolean): Promise<void> {
    const next = new pg.Client({ connectionString, application_name: 'inkwell-cache-listener' })
    next.on('notification', (message) => {
      if (message.channel === INVALIDATION_CHANNEL && message.payload) invalidateLocally(message.payload.split(','))
    })
    next.on('error', (error) => {
      log(`cache listener lost its connection (${error.message}); reconnecting`)
      scheduleReconnect()
    })
    await next.connect()
    await next.query(`LISTEN ${INVALIDATION_CHANNEL}`)
    client = next
    if (!first) invalidateLocally(['*'])
  }

  function scheduleReconnect() {
    if (stopped || retry) return
    client?.end().catch(() => {})
    client = undefined
    retry = setTimeout(() => {
      retry = undefined
      connect(false).catch(() => scheduleReconnect())
    }, 1_000)
    retry.unref()
  }

  await connect(true)
  return {
    stop: async () => {
      stopped = true
      if (retry) clearTimeout(retry)
      await client?.end().catch(() => {})
    },
  }
}

/**
 * Announce from outside a request (a scheduled job): now in this process,
 * and at once to every listening process (there is no transaction to wait for).
 */
export async function announceInvalidation(payload: Payload, tags: string[]): Promise<void> {
  if (tags.length === 0) return
  invalidateLocally(tags)
  await query(payload, 'select pg_notify($1, $2)', [INVALIDATION_CHANNEL, tags.join(',')])
}
