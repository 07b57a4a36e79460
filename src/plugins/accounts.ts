import type { Config, Plugin } from 'payload'

import { Permissions } from '../../collections/Permissions'
import { Roles } from '../../collections/Roles'
import { createUsers } from '../../collections/Users'
import { accountEndpoints } from './accountEndpoints'
import { addToConfig } from './addToConfig'

export type AccountsOptions = { secureCookies: boolean; baseUrl: string; avatarMaxBytes: number; verifyEmail: boolean }

/**
 * Users, roles and permissions (the data-driven access model), and the
 * reader-site account endpoints under /api/accounts: captcha, register, login,
 * logout, profile, avatar and password reset.
 */
export const accountsPlugin =
  (options: AccountsOptions): Plugin =>
  (config: Config): Config => {
    const withCollections = addToConfig({ collections: [createUsers(options), Roles, Permissions] })(config) as Config
    return { ...withCollections, endpoints: [...(withCollections.endpoints ?? []), ...accountEndpoints(options)] }
  }
