/**
 * GET /api/dashboard?period=day|month|year[&article=<id>]: the admin
 * dashboard's data as JSON. 401 signed out, 403 (with the reason) for accounts
 * that may see no statistics, 400 naming the parameter for bad input, 404 for
 * an article the caller may not chart. Never cached by the browser or a proxy.
 */
import type { Endpoint, PayloadRequest } from 'payload'

import { errorResponse } from '../../lib/errorResponse'
import { translatorFor } from '../../lib/i18n/request'
import { dashboardScope } from './access'
import { PERIODS, type Period } from './queries'
import { dashboardData } from './stats'

export const DASHBOARD_API_PATH = '/dashboard'

const PRIVATE = { 'cache-control': 'private, no-store' }

function problem(status: number, message: string, field?: string): Response {
  return errorResponse(status, { message, fields: field ? { [field]: message } : undefined, headers: PRIVATE })
}

function parsePeriod(value: string | null): Period | undefined {
  const period = value ?? 'day'
  return Object.hasOwn(PERIODS, period) ? (period as Period) : undefined
}

function parseArticle(value: string | null): number | undefined | null {
  if (value === null || value === '') return undefined
  return /^[1-9][0-9]{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null
}

export function dashboardEndpoint(timeZone: string): Endpoint {
  return {
    path: DASHBOARD_API_PATH,
    method: 'get',
    handler: async (req: PayloadRequest) => {
      const t = translatorFor(req)
      if (!req.user) return problem(401, t('error.dashboard.signIn'))
      const scope = await dashboardScope(req)
      if (!scope) return problem(403, t('dashboard.refused'))
      const params = new URL(req.url ?? 'http://localhost/').searchParams
      const period = parsePeriod(params.get('period'))
      if (!period) return problem(400, t('error.dashboard.period'), 'period')
      const articleId = parseArticle(params.get('article'))
      if (articleId === null) return problem(400, t('error.dashboard.article'), 'article')
      const data = await dashboardData(req.payload, { period, scope, timeZone, articleId })
      if (!data) return problem(404, t(scope.kind === 'author' ? 'error.dashboard.notYours' : 'error.dashboard.noArticle'), 'article')
      return Response.json(data, { headers: PRIVATE })
    },
  }
}
