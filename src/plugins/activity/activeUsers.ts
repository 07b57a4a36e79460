/**
 * The "active users" list shown on the home page: the most active users of
 * the last 7 days, scored as the original does (published articles × 4 +
 * replies × 1), top 8. The hourly `calculate-active-users` computes it into
 * Payload's key-value store; pages only read it. Without a scheduler, a list
 * older than 65 minutes is recomputed by the first read after that.
 */
import type { Endpoint, Payload } from 'payload'

import { publicArticleSql } from '../../../collections/Articles/access'
import { poolOf } from '../../lib/pool'
import { publicReplySql } from '../../../collections/Replies/access'

export const ACTIVE_USERS_KEY = 'inkwell:active-users'
/** An hour between runs, and five minutes of grace for a late one. */
export const ACTIVE_USERS_TTL_MS = 65 * 60 * 1000
export const ACTIVE_USERS_LIMIT = 8
const ARTICLE_WEIGHT = 4
const REPLY_WEIGHT = 1

export type ActiveUser = { id: number; name: string; avatarUrl?: string | null; score: number }
export type ActiveUsers = { computedAt: string | null; users: ActiveUser[] }

/**
 * One query: articles that became public in the window and replies written in
 * it on public articles, by existing users (a deleted user's rows don't join).
 * Drafts and scheduled articles count for nothing. Ties go to the lower id
 * (the earlier account), so the order is stable.
 */
export async function rankActiveUsers(payload: Payload, now = new Date()): Promise<ActiveUser[]> {
  const { rows } = await poolOf(payload).query<{ id: number; score: string }>(
    `with scores as (
        select author_id as user_id, count(*) * ${ARTICLE_WEIGHT} as score from articles
         where ${publicArticleSql('', '$1::timestamptz')} and published_at > $1::timestamptz - interval '7 days'
         group by author_id
        union all
        select r.author_id, count(*) * ${REPLY_WEIGHT} from replies r join articles a on a.id = r.article_id
         where r.created_at > $1::timestamptz - interval '7 days' and r.created_at <= $1::timestamptz and ${publicReplySql('r')}
           and ${publicArticleSql('a', '$1::timestamptz')}
         group by r.author_id)
     select u.id, sum(s.score) as score from scores s join users u on u.id = s.user_id
      group by u.id order by score desc, u.id asc limit $2`,
    [now.toISOString(), ACTIVE_USERS_LIMIT],
  )
  if (rows.length === 0) return []
  const { docs } = await payload.find({
    collection: 'users',
    where: { id: { in: rows.map((r) => r.id) } },
    depth: 1,
    limit: rows.length,
    pagination: false,
    select: { name: true, avatar: true },
    populate: { media: { url: true, sizes: true } },
    overrideAccess: true,
  })
  const byId = new Map(docs.map((u) => [u.id, u]))
  return rows.flatMap((row) => {
    const user = byId.get(row.id)
    if (!user) return []
    const avatar = user.avatar && typeof user.avatar === 'object' ? user.avatar : undefined
    return [{ id: user.id, name: user.name, avatarUrl: avatar?.sizes?.thumbnail?.url ?? avatar?.url ?? null, score: Number(row.score) }]
  })
}

/** Computes and stores the list: the scheduled command's work. */
export async function calculateActiveUsers(payload: Payload, now = new Date()): Promise<ActiveUsers> {
  const result = { computedAt: now.toISOString(), users: await rankActiveUsers(payload, now) }
  await payload.kv.set(ACTIVE_USERS_KEY, result)
  return result
}

const recomputing = new WeakMap<Payload, Promise<ActiveUsers>>()

/** The stored list, or a fresh one when none is stored or it is older than 65 minutes (one recomputation at a time). */
export async function readActiveUsers(payload: Payload, now = new Date()): Promise<ActiveUsers> {
  const stored = await payload.kv.get<ActiveUsers>(ACTIVE_USERS_KEY)
  const fresh = stored?.computedAt && Array.isArray(stored.users) && now.getTime() - Date.parse(stored.computedAt) < ACTIVE_USERS_TTL_MS
  if (fresh) return stored
  let running = recomputing.get(payload)
  if (!running) {
    running = calculateActiveUsers(payload, now).finally(() => recomputing.delete(payload))
    recomputing.set(payload, running)
  }
  return running
}

/** GET /api/active-users: the stored list (the home page reads it through the Local API; browsers and clients here). */
export const activeUsersEndpoint: Endpoint = {
  path: '/active-users',
  method: 'get',
  handler: async (req) => Response.json(await readActiveUsers(req.payload)),
}
