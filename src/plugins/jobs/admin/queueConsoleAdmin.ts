/** Adds the queue console to the admin: its view, its link in the navigation and its action endpoint. */
import type { Config } from 'payload'

import { addToConfig } from '../../addToConfig'
import { handleQueueConsoleAction, QUEUE_CONSOLE_ACTION_PATH, QUEUE_CONSOLE_PATH } from './queueConsoleData'

export function queueConsoleAdmin(config: Config): Config {
  return addToConfig({
    endpoints: [{ path: QUEUE_CONSOLE_ACTION_PATH, method: 'post', handler: handleQueueConsoleAction }],
    admin: {
      views: { queues: { Component: '/src/plugins/jobs/admin/QueueConsoleView#QueueConsoleView', path: QUEUE_CONSOLE_PATH, exact: true } },
      afterNavLinks: ['/src/plugins/jobs/admin/QueueConsoleNavLink#QueueConsoleNavLink'],
    },
  })(config) as Config
}
