/**
 * The admin home's statistics block (Payload's beforeDashboard slot). The server
 * side decides who sees what; the charts are drawn in the browser from
 * GET /api/dashboard, which checks the same rule again.
 */
import type { ServerProps } from 'payload'

import { createLocalReq } from 'payload'
import React from 'react'

import { adminTranslator } from '../../languages/admin/adminLanguage'
import { dashboardScope } from '../access'
import { DASHBOARD_API_PATH } from '../endpoint'
import { DashboardClient } from './DashboardClient'

export async function Dashboard({ payload, user, i18n }: ServerProps) {
  if (!user) return null
  const req = await createLocalReq({ user: user as never }, payload)
  const scope = await dashboardScope(req)
  if (!scope) {
    return (
      <section id="dashboard" className="inkwell-dashboard" data-testid="dashboard-refused">
        <p>{adminTranslator(i18n)('dashboard.refused')}</p>
      </section>
    )
  }
  return <DashboardClient apiUrl={`${payload.config.routes.api}${DASHBOARD_API_PATH}`} scope={scope.kind} />
}
