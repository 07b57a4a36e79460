/** "Import" in the admin navigation, for holders of `import.run` (the site owner) only. */
import type { ServerProps } from 'payload'

import { createLocalReq } from 'payload'
import React from 'react'

import { adminTranslator } from '../../languages/admin/adminLanguage'
import { IMPORT_PAGE_PATH, mayImport } from './importAccess'

export async function ImportNavLink({ payload, user, i18n }: ServerProps) {
  if (!user) return null
  const req = await createLocalReq({ user: user as never }, payload)
  if (!(await mayImport(req))) return null
  const t = adminTranslator(i18n)
  return (
    <a className="nav__link" href={`${payload.config.routes.admin}${IMPORT_PAGE_PATH}`} data-testid="nav-import">
      <span className="nav__link-label">{t('import.nav')}</span>
    </a>
  )
}
