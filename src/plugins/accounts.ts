import type { Plugin } from 'payload'

import { Permissions } from '../../collections/Permissions'
import { Roles } from '../../collections/Roles'
import { createUsers } from '../../collections/Users'
import { addToConfig } from './addToConfig'

/** Users, roles and permissions: the data-driven access model. */
export const accountsPlugin = (options: { secureCookies: boolean }): Plugin =>
  addToConfig({ collections: [createUsers(options), Roles, Permissions] })
