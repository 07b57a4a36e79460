/**
 * Sign-in through identity providers (GitHub, Google, GitLab, Bitbucket,
 * Facebook, X, LinkedIn and a generic OpenID Connect one), as one feature:
 *  - the OAuthIdentities collection of linked provider accounts (collections/OAuthIdentities);
 *  - the routes `GET /login/<provider>`, its `/callback` and `POST …/unlink`
 *    (routes.ts; the files under src/app/(payload)/login only re-export them,
 *    since Next.js serves them there, on the one origin the providers redirect back to);
 *  - the flow (flow.ts: the passport-oauth2 strategy, OpenID Connect, the
 *    server-side attempts, the account rules, the session cookie, the avatar);
 *  - the settings (settings.ts parses the OAUTH_* and <PROVIDER>_* variables for
 *    src/lib/env.ts; options.ts is the slice the composition hands this plugin).
 * Without this plugin the /login/<provider> routes answer 404 (oauthOptions finds no options).
 */
import type { Config, Plugin } from 'payload'

import { OAuthIdentities } from '../../../collections/OAuthIdentities'
import { addToConfig } from '../addToConfig'
import { withPluginOptions } from '../pluginOptions'
import { OAUTH_OPTIONS_KEY, type OAuthOptions } from './options'

export type { OAuthOptions } from './options'

export const oauthPlugin =
  (options: OAuthOptions): Plugin =>
  (config: Config): Config => {
    const withCollection = addToConfig({ collections: [OAuthIdentities] })(config) as Config
    return withPluginOptions(withCollection, OAUTH_OPTIONS_KEY, options)
  }
