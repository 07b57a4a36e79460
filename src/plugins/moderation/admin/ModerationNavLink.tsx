/** "Moderation" in the admin navigation, for holders of `replies.moderate`, with the count of replies waiting. */
import type { ServerProps } from 'payload'

import { createLocalReq } from 'payload'
import React from 'react'

import { hasPermission } from '../../../access'
import { adminTranslator } from '../../languages/admin/adminLanguage'
import { MODERATE } from '../hooks'
import { MODERATION_QUEUE_PATH, waitingCount } from '../queue'

export async function ModerationNavLink({ payload, user, i18n }: ServerProps) {
  if (!user) return null
  const req = await createLocalReq({ user: user as never }, payload)
  if (!(await hasPermission(req, MODERATE))) return null
  // A count that cannot be read (the database is away) never breaks the navigation.
  const waiting = await waitingCount(payload).catch(() => 0)
  const t = adminTranslator(i18n)
  return (
    <a className="nav__link" href={`${payload.config.routes.admin}${MODERATION_QUEUE_PATH}`} data-testid="nav-moderation">
      <span className="nav__link-label">{t('moderation.nav')}</span>
      {waiting > 0 ? (
        <span
          data-testid="nav-moderation-count"
          title={t('moderation.navWaiting', { count: waiting })}
          style={{ marginLeft: '0.5rem', padding: '0 0.45rem', borderRadius: '1rem', background: 'var(--theme-warning-500)', color: 'var(--theme-elevation-0)', fontSize: 12 }}
        >
          {waiting}
        </span>
      ) : null}
    </a>
  )
}
