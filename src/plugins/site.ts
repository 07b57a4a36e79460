import type { Config, Plugin } from 'payload'

import { Links } from '../../collections/Links'
import { SiteSettings } from '../globals/SiteSettings'
import { readActiveUsers } from './activity/activeUsers'
import { addToConfig } from './addToConfig'

/** Site-wide pieces: settings, friendly links and the active-users list. */
export const sitePlugin = (): Plugin => (config: Config): Config => {
  const withParts = addToConfig({ collections: [Links], globals: [SiteSettings] })(config) as Config
  return {
    ...withParts,
    endpoints: [
      ...(withParts.endpoints ?? []),
      {
        path: '/active-users',
        method: 'get',
        handler: async (req) => Response.json(await readActiveUsers(req.payload)),
      },
    ],
  }
}
