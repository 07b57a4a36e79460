/**
 * The owner's dashboard: site statistics (or an author's own) at the top of the
 * admin home, fed by GET /api/dashboard, with a "Dashboard" link in the admin
 * navigation for those who may open it. The numbers are SQL aggregates in
 * APP_TIMEZONE (queries.ts), cached for a minute and purged on changes (stats.ts).
 */
import type { Config, Plugin } from 'payload'

import { dashboardEndpoint } from './endpoint'

export type DashboardOptions = { timeZone: string }

const ADMIN = '/src/plugins/dashboard/admin'

export const dashboardPlugin =
  ({ timeZone }: DashboardOptions): Plugin =>
  (config: Config): Config => {
    const components = config.admin?.components ?? {}
    return {
      ...config,
      admin: {
        ...config.admin,
        components: {
          ...components,
          beforeDashboard: [...(components.beforeDashboard ?? []), `${ADMIN}/Dashboard#Dashboard`],
          // First among the custom links: the dashboard is the admin's home.
          afterNavLinks: [`${ADMIN}/DashboardNavLink#DashboardNavLink`, ...(components.afterNavLinks ?? [])],
        },
      },
      endpoints: [...(config.endpoints ?? []), dashboardEndpoint(timeZone)],
    }
  }
