/** "Dashboard" in the admin navigation, for those who may see statistics (the site's, or their own articles'). */
import type { ServerProps } from 'payload'

import { createLocalReq } from 'payload'
import React from 'react'

import { adminTranslator } from '../../languages/admin/adminLanguage'
import { dashboardScope } from '../access'

export async function DashboardNavLink({ payload, user, i18n }: ServerProps) {
  if (!user) return null
  const req = await createLocalReq({ user: user as never }, payload)
  if (!(await dashboardScope(req))) return null
  return (
    <a className="nav__link" href={`${payload.config.routes.admin}#dashboard`} data-testid="nav-dashboard">
      <span className="nav__link-label">{adminTranslator(i18n)('dashboard.nav')}</span>
    </a>
  )
}
