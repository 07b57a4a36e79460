/**
 * Who sees which statistics: holders of `admin.dashboard` see the whole site's;
 * writers (`articles.create`) see their own articles' only; anyone else gets a
 * clear refusal, never the numbers.
 */
import type { PayloadRequest } from 'payload'

import { hasPermission } from '../../access'
import type { Scope } from './queries'

export const DASHBOARD_PERMISSION = 'admin.dashboard'
export const OWN_STATISTICS_PERMISSION = 'articles.create'

export async function dashboardScope(req: PayloadRequest): Promise<Scope | undefined> {
  if (!req.user || req.user.collection !== 'users') return undefined
  if (await hasPermission(req, DASHBOARD_PERMISSION)) return { kind: 'site' }
  if (await hasPermission(req, OWN_STATISTICS_PERMISSION)) return { kind: 'author', authorId: Number(req.user.id) }
  return undefined
}
