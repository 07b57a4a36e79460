/** Users as the public sees them: a profile, who is active, and id/slug lists. */
import { readActiveUsers, type ActiveUsers } from '../../../../src/plugins/activity/activeUsers'
import type { User } from '../../../../src/payload-types'
import { asPublic, composed, payload } from './payload'

export async function getUser(id: number): Promise<User | null> {
  return (await payload().findByID({
    collection: 'users',
    id,
    depth: 1,
    select: { name: true, introduction: true, avatar: true, activedAt: true, createdAt: true, roles: true },
    populate: { media: { url: true, sizes: true }, roles: { label: true } },
    disableErrors: true,
    ...asPublic,
  })) as User | null
}

/** Who was active lately (the activity plugin's hourly list); null without that plugin. */
export async function getActiveUsers(): Promise<ActiveUsers | null> {
  return composed('activity') ? readActiveUsers(payload()) : null
}

export async function listAll<T>(collection: 'categories' | 'tags' | 'users', fields: string[]): Promise<T[]> {
  const select = Object.fromEntries(fields.map((f) => [f, true]))
  return (await payload().find({ collection, limit: 0, pagination: false, depth: 0, select, ...asPublic })).docs as T[]
}
