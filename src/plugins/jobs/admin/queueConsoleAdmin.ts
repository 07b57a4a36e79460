/** Adds the queue console to the admin: its view, its link in the navigation and its action endpoint. */
import type { Config } from 'payload'

import { handleQueueConsoleAction, QUEUE_CONSOLE_ACTION_PATH, QUEUE_CONSOLE_PATH } from './queueConsoleData'

export function queueConsoleAdmin(config: Config): Config {
  const components = config.admin?.components ?? {}
  return {
    ...config,
    admin: {
      ...config.admin,
      components: {
        ...components,
        views: {
          ...components.views,
          queues: { Component: '/src/plugins/jobs/admin/QueueConsoleView#QueueConsoleView', path: QUEUE_CONSOLE_PATH, exact: true },
        },
        afterNavLinks: [...(components.afterNavLinks ?? []), '/src/plugins/jobs/admin/QueueConsoleNavLink#QueueConsoleNavLink'],
      },
    },
    endpoints: [...(config.endpoints ?? []), { path: QUEUE_CONSOLE_ACTION_PATH, method: 'post', handler: handleQueueConsoleAction }],
  }
}
