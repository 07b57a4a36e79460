/** "Queues" in the admin navigation, for holders of `queue.monitor` only, with the count of dead-lettered jobs when there are any. */
import type { ServerProps } from 'payload'

import { createLocalReq } from 'payload'
import React from 'react'

import { deadLetterCount, mayMonitorQueue, QUEUE_CONSOLE_PATH } from './queueConsoleData'

export async function QueueConsoleNavLink({ payload, user }: ServerProps) {
  if (!user) return null
  const req = await createLocalReq({ user: user as never }, payload)
  if (!(await mayMonitorQueue(req))) return null
  // A count that cannot be read (the database is away) never breaks the navigation.
  const dead = await deadLetterCount(payload).catch(() => 0)
  return (
    <a className="nav__link" href={`${payload.config.routes.admin}${QUEUE_CONSOLE_PATH}`} data-testid="nav-queue-console">
      <span className="nav__link-label">Queues</span>
      {dead > 0 ? (
        <span
          data-testid="nav-queue-console-dead"
          title={`${dead} dead-lettered job(s)`}
          style={{ marginLeft: '0.5rem', padding: '0 0.45rem', borderRadius: '1rem', background: 'var(--theme-error-500)', color: 'var(--theme-elevation-0)', fontSize: 12 }}
        >
          {dead}
        </span>
      ) : null}
    </a>
  )
}
