/**
 * The admin's "not allowed" page, with the switcher's banner above it. A
 * switched owner who became a reader cannot enter the admin; without the
 * banner here, the only way back would be to sign out. Payload renders this
 * page in its minimal template (no header), so the plugin replaces the view
 * (admin.components.views.unauthorized) and keeps its wording and its button.
 */
import { Button } from '@payloadcms/ui'
import type { AdminViewServerProps } from 'payload'
import { formatAdminURL } from 'payload/shared'
import React from 'react'

import { UserSwitchHeader } from './UserSwitchHeader'

export async function UnauthorizedView({ initPageResult }: AdminViewServerProps) {
  const { permissions, req } = initPageResult
  const { i18n, payload, user } = req
  const { admin: adminRoute } = payload.config.routes
  const heading = user && !permissions.canAccessAdmin ? i18n.t('error:unauthorizedAdmin') : i18n.t('error:unauthorized')
  return (
    <div className="unauthorized">
      <UserSwitchHeader payload={payload} user={user ?? undefined} i18n={i18n} locale={initPageResult.locale} params={{}} permissions={permissions} searchParams={{}} />
      <div className="form-header">
        <h1>{heading}</h1>
        <p>{i18n.t('error:notAllowedToAccessPage')}</p>
      </div>
      <Button className="unauthorized__button" el="link" size="large" to={formatAdminURL({ adminRoute, path: payload.config.admin.routes.logout })}>
        {i18n.t('authentication:logOut')}
      </Button>
    </div>
  )
}
