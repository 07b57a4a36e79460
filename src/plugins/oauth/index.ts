import type { Plugin } from 'payload'

import { OAuthIdentities } from '../../../collections/OAuthIdentities'
import { addToConfig } from '../addToConfig'

/**
 * Sign-in through identity providers. The collection of linked provider
 * accounts lives here; the routes (`/login/<provider>`, its callback and
 * unlink) are Next.js route handlers in src/app/(payload)/login that call
 * src/plugins/oauth/flow.ts, on the one origin the providers redirect back to.
 */
export const oauthPlugin = (): Plugin => addToConfig({ collections: [OAuthIdentities] })
