/** "Queues" in the admin navigation, for holders of `queue.monitor` only. */
import type { ServerProps } from 'payload'

import { createLocalReq } from 'payload'
import React from 'react'

import { mayMonitorQueue, QUEUE_CONSOLE_PATH } from './queueConsoleData'

export async function QueueConsoleNavLink({ payload, user }: ServerProps) {
  if (!user) return null
  const req = await createLocalReq({ user: user as never }, payload)
  if (!(await mayMonitorQueue(req))) return null
  return (
    <a className="nav__link" href={`${payload.config.routes.admin}${QUEUE_CONSOLE_PATH}`} data-testid="nav-queue-console">
      <span className="nav__link-label">Queues</span>
    </a>
  )
}
