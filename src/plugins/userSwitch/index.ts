/**
 * The debug-only user switcher: a holder of users.switch (the site owner)
 * browses the site and the admin as any user, and switches back in one click.
 * It exists only with APP_DEBUG=true on a .dev/.local/.test host and never in
 * production; elsewhere its routes answer 404 and nothing of it is rendered.
 *
 *  - strategy.ts      authenticates a switched request as the user browsed as (every path)
 *  - endpoints.ts     GET/POST /api/user-switch, POST /api/user-switch/back
 *  - ownerSession.ts  a refresh or sign-out while switched acts on the owner's own session
 *  - switchCookie.ts  the signed switch cookie, and where the switcher is active
 *  - switchedActs.ts a switched session makes no token and changes no credential; its every write is logged
 *  - the user-switches collection logs every switch (who, whom, when) and every act while switched
 *  - admin/           the banner and picker in the admin header;
 *    frontend/src/components/UserSwitcher.astro: the same on the reader site
 */
import type { CollectionConfig, Config, Plugin } from 'payload'

import { UserSwitches } from '../../../collections/UserSwitches'
import { addToConfig } from '../addToConfig'
import { withPluginOptions } from '../pluginOptions'
import { userSwitchEndpoints } from './endpoints'
import { endOwnerSessionOnLogout, refreshAsOwner } from './ownerSession'
import { USER_SWITCH_KEY, type SwitcherSettings } from './switchCookie'
import { userSwitchStrategy } from './strategy'
import { withSwitchedActLog, withSwitchedActRules } from './switchedActs'

function withStrategy(collection: CollectionConfig, settings: SwitcherSettings): CollectionConfig {
  if (collection.slug !== 'users' || !collection.auth) return collection
  const auth = collection.auth === true ? {} : collection.auth
  const hooks = collection.hooks ?? {}
  return {
    ...collection,
    // First, so it is asked before Payload's own JWT strategy (which it consults itself).
    auth: { ...auth, strategies: [userSwitchStrategy(settings), ...(auth.strategies ?? [])] },
    hooks: {
      ...hooks,
      beforeOperation: [refreshAsOwner, ...(hooks.beforeOperation ?? [])],
      afterLogout: [...(hooks.afterLogout ?? []), endOwnerSessionOnLogout],
    },
  }
}

export const userSwitchPlugin =
  (settings: SwitcherSettings): Plugin =>
  (config: Config): Config => {
    if (!config.collections?.some((c) => c.slug === 'users')) {
      throw new Error('userSwitchPlugin: add it after the plugin that adds the users collection (accountsPlugin)')
    }
    const parts = addToConfig({
      collections: [UserSwitches],
      endpoints: userSwitchEndpoints(settings),
      admin: {
        header: ['/src/plugins/userSwitch/admin/UserSwitchHeader#UserSwitchHeader'],
        // The "not allowed" page too: a user switched to a reader must find the way back there.
        views: { unauthorized: { Component: '/src/plugins/userSwitch/admin/UnauthorizedView#UnauthorizedView' } },
      },
    })
    const withLog = withPluginOptions(parts(config) as Config, USER_SWITCH_KEY, settings)
    return {
      ...withLog,
      // Composed after every plugin that adds collections (src/plugins/index.ts), so these rules see them all.
      collections: withLog.collections!.map((c) => withSwitchedActRules(withStrategy(c, settings))),
      globals: (withLog.globals ?? []).map(withSwitchedActLog),
    }
  }
