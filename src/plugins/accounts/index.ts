import type { Config, Plugin } from 'payload'

import { Permissions } from '../../../collections/Permissions'
import { Roles } from '../../../collections/Roles'
import { createUsers } from '../../../collections/Users'
import { graphqlLockoutAnswersAsWrongPassword } from '../../../collections/Users/hooks/lockoutAnswer'
import { addToConfig } from '../addToConfig'
import { avatarEndpoint } from './endpoints/avatar'
import { captchaEndpoint } from './endpoints/captcha'
import { forgotPasswordEndpoint } from './endpoints/forgotPassword'
import { loginEndpoint } from './endpoints/login'
import { logoutEndpoint } from './endpoints/logout'
import { profileEndpoint } from './endpoints/profile'
import { registerEndpoint } from './endpoints/register'
import { resetPasswordEndpoint } from './endpoints/resetPassword'
import { verifyEmailEndpoint } from './endpoints/verifyEmail'
import type { AccountsOptions } from './options'

export type { AccountsOptions } from './options'

/**
 * Users, roles and permissions (the data-driven access model), and the
 * reader-site account endpoints under /api/accounts: captcha, register, login,
 * logout, profile, avatar, password reset and e-mail confirmation.
 *
 * The rules (password policy, current password, who may change whom, reset
 * tokens, session lifetime) live in collections/Users, so REST, GraphQL, the
 * Local API and these endpoints obey the same ones; each endpoint only reads
 * its form and answers it.
 */
export const accountsPlugin =
  (options: AccountsOptions): Plugin =>
  (config: Config): Config => {
    const withCollections = addToConfig({ collections: [createUsers(options), Roles, Permissions] })(config) as Config
    const endpoints = [
      captchaEndpoint(options),
      registerEndpoint(options),
      loginEndpoint(options),
      logoutEndpoint(),
      profileEndpoint(),
      avatarEndpoint(options),
      forgotPasswordEndpoint(options),
      resetPasswordEndpoint(options),
      verifyEmailEndpoint(),
    ]
    return {
      ...withCollections,
      endpoints: [...(withCollections.endpoints ?? []), ...endpoints],
      // GraphQL's errors reach only the config's afterError hooks, not the collection's.
      hooks: { ...withCollections.hooks, afterError: [...(withCollections.hooks?.afterError ?? []), graphqlLockoutAnswersAsWrongPassword] },
    }
  }
