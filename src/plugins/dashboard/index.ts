/**
 * The owner's dashboard: site statistics (or an author's own) at the top of the
 * admin home, fed by GET /api/dashboard, with a "Dashboard" link in the admin
 * navigation for those who may open it. The numbers are SQL aggregates in
 * APP_TIMEZONE (queries.ts), cached for a minute and purged on changes (stats.ts).
 */
import type { Plugin } from 'payload'

import { addToConfig } from '../addToConfig'
import { dashboardEndpoint } from './endpoint'

export type DashboardOptions = { timeZone: string }

const ADMIN = '/src/plugins/dashboard/admin'

export const dashboardPlugin = ({ timeZone }: DashboardOptions): Plugin =>
  addToConfig({
    endpoints: [dashboardEndpoint(timeZone)],
    admin: {
      beforeDashboard: [`${ADMIN}/Dashboard#Dashboard`],
      // First among the custom links: the dashboard is the admin's home.
      firstNavLinks: [`${ADMIN}/DashboardNavLink#DashboardNavLink`],
    },
  })
