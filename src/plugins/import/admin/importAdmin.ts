/** Adds the import page to the admin (/admin/import) and its link in the navigation, for holders of `import.run`. */
import type { Config } from 'payload'

import { addToConfig } from '../../addToConfig'
import { IMPORT_PAGE_PATH } from './importAccess'

export function importAdmin(config: Config): Config {
  return addToConfig({
    admin: {
      views: { import: { Component: '/src/plugins/import/admin/ImportView#ImportView', path: IMPORT_PAGE_PATH, exact: true } },
      afterNavLinks: ['/src/plugins/import/admin/ImportNavLink#ImportNavLink'],
    },
  })(config) as Config
}
