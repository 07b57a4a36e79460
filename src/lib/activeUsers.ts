/**
 * The "active users" list shown on the home page. A scheduled job computes it
 * (hourly) and stores it in Payload's key-value store; pages only read it.
 */
import type { Payload } from 'payload'

export const ACTIVE_USERS_KEY = 'inkwell:active-users'

export type ActiveUser = { id: number; name: string; avatarUrl?: string | null; score: number }
export type ActiveUsers = { computedAt: string | null; users: ActiveUser[] }

export async function readActiveUsers(payload: Payload): Promise<ActiveUsers> {
  const stored = await payload.kv.get<ActiveUsers>(ACTIVE_USERS_KEY)
  return stored && Array.isArray(stored.users) ? stored : { computedAt: null, users: [] }
}
