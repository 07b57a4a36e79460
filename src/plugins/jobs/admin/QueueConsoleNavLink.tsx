/** "Queues" in the admin navigation, for holders of `queue.monitor` only, with the count of dead-lettered jobs when there are any. */
import type { ServerProps } from 'payload'

import { createLocalReq } from 'payload'
import React from 'react'

import { adminTranslator } from '../../languages/admin/adminLanguage'
import { deadLetterCount, mayMonitorQueue, QUEUE_CONSOLE_PATH } from './queueConsoleData'

export async function QueueConsoleNavLink({ payload, user, i18n }: ServerProps) {
  if (!user) return null
  const req = await createLocalReq({ user: user as never }, payload)
  if (!(await mayMonitorQueue(req))) return null
  // A count that cannot be read (the database is away) never breaks the navigation.
  const dead = await deadLetterCount(payload).catch(() => 0)
  const t = adminTranslator(i18n)
  return (
    <a className="nav__link" href={`${payload.config.routes.admin}${QUEUE_CONSOLE_PATH}`} data-testid="nav-queue-console">
      <span className="nav__link-label">{t('queues.nav')}</span>
      {dead > 0 ? (
        <span
          data-testid="nav-queue-console-dead"
          title={t('queues.navDead', { count: dead })}
          style={{ marginLeft: '0.5rem', padding: '0 0.45rem', borderRadius: '1rem', background: 'var(--theme-error-500)', color: 'var(--theme-elevation-0)', fontSize: 12 }}
        >
          {dead}
        </span>
      ) : null}
    </a>
  )
}
