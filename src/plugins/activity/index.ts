/**
 * Activity: article view counts, last-active times, the active-users list
 * (and its GET /api/active-users) and scheduled publishing, with their four
 * commands and schedules.
 *
 * At init every Payload instance gets a view counter and a last-active
 * recorder (Redis when REDIS_URL is set, PostgreSQL otherwise, same
 * interfaces), and its auth strategies are wrapped so that every signed-in
 * request — REST, GraphQL, the admin, the reader site — touches the user's
 * last-active time in memory. destroy() flushes both before the database closes.
 */
import type { CollectionConfig, Config, Field, FieldHook, Payload, Plugin } from 'payload'

import { addSchedules, type BlogSchedule } from '../../../jobs/commands'
import { activeUsersEndpoint, calculateActiveUsers } from './activeUsers'
import { announceInvalidation } from '../../lib/cacheBus'
import { dayIn } from './day'
import { installLastActive, lastActiveTime, LastActiveRecorder, postgresActivitySink, redisActivitySink, syncLastActiveToDatabase } from './lastActive'
import { onAuthenticated, onDestroy } from '../../lib/payloadPatches'
import { poolOf } from '../../lib/pool'
import { connectRedis, whenReady } from '../../lib/redis'
import { BatchedViewCounter, installViewCounter, postgresViewWriter, redisViewSink, syncViewsToDatabase } from './views'
import { publishScheduled } from './publishScheduled'

export type ActivityOptions = { redisUrl?: string; redisKeyPrefix: string; redisTimeoutMs: number; timeZone: string }

/** A sync reads whole day hashes: its own connection, patient, outside any page's path. */
const SYNC_TIMEOUT_MS = 30_000

function schedules(options: ActivityOptions): BlogSchedule[] {
  const withSyncRedis = async <T>(payload: Payload, work: (redis: ReturnType<typeof connectRedis>) => Promise<T>): Promise<T> => {
    const redis = connectRedis({ url: options.redisUrl!, timeoutMs: SYNC_TIMEOUT_MS, log: (m) => payload.logger.warn(m) })
    try {
      await whenReady(redis, SYNC_TIMEOUT_MS)
      return await work(redis)
    } finally {
      redis.disconnect()
    }
  }
  return [
    {
      name: 'calculate-active-users',
      cron: '0 * * * *',
      description: 'Rank the most active users of the last 7 days (articles × 4 + replies × 1, top 8) for the home page',
      run: async (payload, io) => {
        const { users } = await calculateActiveUsers(payload)
        for (const [i, user] of users.entries()) io.log(`${i + 1}. ${user.name} (#${user.id}): ${user.score}`)
        await announceInvalidation(payload, ['active-users'])
        return `${users.length} active user(s) ranked`
      },
    },
    {
      name: 'sync-article-view-count',
      cron: '0 0 * * *',
      description: 'Move the view counts kept in Redis into the database (articles and the daily series)',
      run: async (payload, io) => {
        const pool = poolOf(payload)
        await pool.query(`delete from applied_view_batches where applied_at < now() - interval '7 days'`)
        if (!options.redisUrl) return 'no REDIS_URL: views are written to the database as they come, nothing to sync'
        const result = await withSyncRedis(payload, (redis) => syncViewsToDatabase(redis, pool, options.redisKeyPrefix, io.progress))
        return `synced ${result.views} view(s) of ${result.articles} article-day(s) from ${result.days} day hash(es)`
      },
    },
    {
      name: 'sync-user-actived-at',
      cron: '0 0 * * *',
      description: 'Move the last-active times kept in Redis into the database',
      run: async (payload, io) => {
        if (!options.redisUrl) return 'no REDIS_URL: last-active times are written to the database as they come, nothing to sync'
        const result = await withSyncRedis(payload, (redis) => syncLastActiveToDatabase(redis, poolOf(payload), options.redisKeyPrefix, io.progress))
        return `synced the last-active time of ${result.users} user-day(s) from ${result.days} day hash(es)`
      },
    },
    {
      name: 'publish-scheduled',
      cron: '* * * * *',
      description: 'Show articles whose publish time has come: purge the cached pages, lists, feeds and sitemap',
      run: (payload, io) => publishScheduled(payload, io),
    },
  ]
}

/** A warning at most once a minute: a Redis outage retries every few seconds. */
function throttledWarning(payload: Payload, what: string): (error: unknown) => void {
  let last = 0
  return (error) => {
    if (Date.now() - last < 60_000) return
    last = Date.now()
    payload.logger.warn(`${what} kept in memory, will retry: ${(error as Error).message}`)
  }
}

function startActivity(payload: Payload, options: ActivityOptions): () => Promise<void> {
  const pool = poolOf(payload)
  const redis = options.redisUrl ? connectRedis({ url: options.redisUrl, timeoutMs: options.redisTimeoutMs, log: (m) => payload.logger.warn(m) }) : undefined
  const redisOptions = redis && { redis, prefix: options.redisKeyPrefix, readTimeoutMs: options.redisTimeoutMs }
  const views = new BatchedViewCounter(redisOptions ? redisViewSink(redisOptions) : postgresViewWriter(pool), {
    dayOf: (at) => dayIn(options.timeZone, at),
    onError: throttledWarning(payload, 'view counts'),
  })
  const lastActive = new LastActiveRecorder(redisOptions ? redisActivitySink(redisOptions) : postgresActivitySink(pool), {
    timeZone: options.timeZone,
    onError: throttledWarning(payload, 'last-active times'),
  })
  installViewCounter(payload, views)
  installLastActive(payload, lastActive)
  // Every signed-in request, by any strategy, touches the user's last-active time.
  onAuthenticated(payload, (user) => {
    if (user.collection === 'users' && typeof user.id === 'number') lastActive.touch(user.id)
  })
  return async () => {
    await Promise.all([views.stop(), lastActive.stop()])
    redis?.disconnect()
  }
}

/**
 * users.activedAt as read (API, admin, profiles): the latest known time —
 * the database's, Redis's not yet synced, this process's not yet flushed —
 * and the registration time when none is known, as the original shows it.
 */
const showLastActive: FieldHook = async ({ value, data, req }) => {
  const user = data as { id?: number; createdAt?: string } | undefined
  if (typeof user?.id !== 'number' || !user.createdAt) return value
  return lastActiveTime(req.payload, { id: user.id, activedAt: value as string | null, createdAt: user.createdAt })
}

function withLastActiveShown(collection: CollectionConfig): CollectionConfig {
  if (collection.slug !== 'users') return collection
  const fields = collection.fields.map((field): Field =>
    'name' in field && field.name === 'activedAt' && field.type === 'date'
      ? { ...field, hooks: { ...field.hooks, afterRead: [...(field.hooks?.afterRead ?? []), showLastActive] } }
      : field,
  )
  return { ...collection, fields }
}

/** Articles: "Scheduled for …" in the edit view's sidebar and in the list's status column. */
function withScheduledNotice(collection: CollectionConfig): CollectionConfig {
  if (collection.slug !== 'articles') return collection
  const fields = collection.fields.flatMap((field): Field[] => {
    if (!('name' in field)) return [field]
    if (field.name === 'status' && field.type === 'select') {
      return [{ ...field, admin: { ...field.admin, components: { ...field.admin?.components, Cell: '/src/plugins/activity/admin/ScheduledNotice#StatusCell' } } }]
    }
    if (field.name === 'publishedAt') {
      return [field, { name: 'scheduledNotice', type: 'ui', admin: { position: 'sidebar', components: { Field: '/src/plugins/activity/admin/ScheduledNotice#ScheduledNotice' } } }]
    }
    return [field]
  })
  return { ...collection, fields }
}

export const activityPlugin =
  (options: ActivityOptions): Plugin =>
  (config: Config): Config => {
    const withSchedules = addSchedules({ ...config, endpoints: [...(config.endpoints ?? []), activeUsersEndpoint] }, schedules(options))
    return {
      ...withSchedules,
      collections: (withSchedules.collections ?? []).map(withLastActiveShown).map(withScheduledNotice),
      onInit: async (payload) => {
        await withSchedules.onInit?.(payload)
        const stop = startActivity(payload, options)
        // The last views and touches reach the database before it closes.
        onDestroy(payload, () => stop().catch((error) => payload.logger.error({ err: error }, 'activity: final flush failed')))
      },
    }
  }
