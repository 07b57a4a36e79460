/**
 * A custom admin view's page inside Payload's own template (its navigation
 * and header, in the user's admin language), as each of Inkwell's views
 * (the queue console, the moderation queue, the import page) renders it.
 */
import type { AdminViewServerProps } from 'payload'

import { DefaultTemplate } from '@payloadcms/next/templates'
import React from 'react'

export function InPayloadTemplate({ view, children }: { view: AdminViewServerProps; children: React.ReactNode }) {
  const { req, visibleEntities, permissions, locale } = view.initPageResult
  return (
    <DefaultTemplate
      i18n={req.i18n}
      locale={locale}
      params={view.params}
      payload={req.payload}
      permissions={permissions}
      req={req}
      searchParams={view.searchParams}
      user={view.user}
      visibleEntities={visibleEntities}
    >
      {children}
    </DefaultTemplate>
  )
}
