import {
  APIError,
  type AuthStrategy,
  type CollectionBeforeOperationHook,
  type CollectionConfig,
  type CollectionMeHook,
  type Config,
  type Endpoint,
  type GlobalBeforeChangeHook,
  type GlobalConfig,
  type Payload,
  type Plugin,
} from 'payload'

import { AccessTokens } from '../../../collections/AccessTokens'
import { keepAccessTokensField, revokeTokensOnPasswordChange, revokeTokensOnPasswordReset } from '../../../collections/AccessTokens/hooks/revokeOnPasswordChange'
import {
  isReadOnlyToken,
  parseToken,
  presentedToken,
  readOnlyTokenRefusal,
  requestToken,
  secretMatches,
  TOKEN_STRATEGY,
  type TokenScope,
} from './tokens'
import { validationTranslator } from '../../lib/i18n/request'

/** Last-used times are written at most this often per token, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000

type StoredToken = { id: number; scope: TokenScope; secretHash?: string | null; expiresAt?: string | null; lastUsedAt?: string | null; user?: number | null }

async function findToken(payload: Payload, publicId: string): Promise<StoredToken | undefined> {
  const { docs } = await payload.find({
    collection: 'access-tokens',
    where: { publicId: { equals: publicId } },
    limit: 1,
    depth: 0,
    overrideAccess: true,
    showHiddenFields: true,
    pagination: false,
  })
  return docs[0] as StoredToken | undefined
}

async function noteUse(payload: Payload, token: StoredToken): Promise<void> {
  if (token.lastUsedAt && Date.now() - new Date(token.lastUsedAt).getTime() < LAST_USED_RESOLUTION_MS) return
  // Straight to the database: a read is not a document change (no hooks, no updatedAt).
  await payload.db
    .updateOne({ collection: 'access-tokens', id: token.id, data: { lastUsedAt: new Date().toISOString() }, returning: false })
    .catch((error: Error) => payload.logger.warn(`access token ${token.id}: last-used time not saved (${error.message})`))
}

/**
 * `Authorization: Bearer iwt_…` or `?access_token=iwt_…`: the token's user,
 * marked as authenticated by a token of its scope. An unknown, expired or
 * ownerless token authenticates no one (the request is anonymous).
 */
export const accessTokenStrategy: AuthStrategy = {
  name: TOKEN_STRATEGY,
  authenticate: async ({ headers, payload, req }) => {
    const presented = presentedToken(headers, req?.url)
    const parsed = presented && parseToken(presented)
    if (!parsed) return { user: null }
    const token = await findToken(payload, parsed.publicId)
    if (!token?.secretHash || !token.user || !secretMatches(parsed.secret, token.secretHash)) return { user: null }
    if (token.expiresAt && new Date(token.expiresAt).getTime() <= Date.now()) return { user: null }
    const user = await payload.findByID({ collection: 'users', id: token.user, depth: 0, overrideAccess: true, disableErrors: true })
    if (!user || (user as { _verified?: boolean | null })._verified === false) return { user: null }
    await noteUse(payload, token)
    return {
      user: { ...user, collection: 'users', _strategy: TOKEN_STRATEGY, _accessToken: { id: token.id, scope: token.scope } } as never,
    }
  },
}

const WRITES = new Set(['create', 'update', 'updateByID', 'delete', 'deleteByID'])

/** A read-scope token writes nothing, on any collection, by any path (REST, GraphQL, the site, custom endpoints). */
export const refuseReadOnlyTokenWrites: CollectionBeforeOperationHook = ({ args, operation, req }) => {
  if (WRITES.has(operation) && !(args as { overrideAccess?: boolean }).overrideAccess && isReadOnlyToken(req)) {
    throw new APIError(readOnlyTokenRefusal(req), 403, undefined, true)
  }
  return args
}

const refuseReadOnlyTokenGlobalWrites: GlobalBeforeChangeHook = ({ data, req }) => {
  if (isReadOnlyToken(req)) throw new APIError(readOnlyTokenRefusal(req), 403, undefined, true)
  return data
}

/**
 * A token acts for its user, except on the credentials: the password and the
 * e-mail (which resets the password) are changed by someone who knows the
 * password, so a leaked token cannot take the account over.
 */
export const refuseCredentialChangesByToken: CollectionBeforeOperationHook = ({ args, operation, req }) => {
  if (!requestToken(req)) return args
  if (operation === 'refresh') {
    throw new APIError(validationTranslator(req)('error.token.noSession'), 403, undefined, true)
  }
  if (operation !== 'update' && operation !== 'updateByID') return args
  const data = (args as { data?: { password?: unknown; email?: unknown } }).data
  if (data && ((typeof data.password === 'string' && data.password !== '') || typeof data.email === 'string')) {
    throw new APIError(validationTranslator(req)('error.token.noCredentials'), 403, undefined, true)
  }
  return args
}

/**
 * `/api/users/me` for a token: the user and the token's expiry. Payload would
 * otherwise decode the Bearer value as its own JWT (and fail), and never
 * echoes a credential back.
 */
export const meByToken: CollectionMeHook = async ({ args, user }) => {
  const token = requestToken(args.req)
  if (!token) return
  const stored = (await args.req.payload.findByID({ collection: 'access-tokens', id: token.id, depth: 0, overrideAccess: true, disableErrors: true })) as {
    expiresAt?: string | null
  } | null
  const exp = stored?.expiresAt ? Math.floor(new Date(stored.expiresAt).getTime() / 1000) : undefined
  return { user, exp } as never
}

/**
 * Custom endpoints that change something (any method but GET) are closed to
 * read-scope tokens; an endpoint that only reads through POST (a rendered
 * image, say) says so with `custom.readOnly`.
 */
function guardEndpoint(endpoint: Endpoint): Endpoint {
  if (endpoint.method === 'get' || endpoint.method === 'options' || endpoint.custom?.readOnly) return endpoint
  return {
    ...endpoint,
    handler: async (req) => {
      if (isReadOnlyToken(req)) return Response.json({ errors: [{ message: readOnlyTokenRefusal(req) }] }, { status: 403 })
      return endpoint.handler(req)
    },
  }
}

function withTokenRules(collection: CollectionConfig): CollectionConfig {
  const users = collection.slug === 'users'
  const auth = users && typeof collection.auth === 'object' ? collection.auth : users ? {} : undefined
  return {
    ...collection,
    ...(auth ? { auth: { ...auth, strategies: [accessTokenStrategy, ...(auth.strategies ?? [])] } } : {}),
    endpoints: Array.isArray(collection.endpoints) ? collection.endpoints.map(guardEndpoint) : collection.endpoints,
    ...(users ? { fields: [...collection.fields, keepAccessTokensField] } : {}),
    hooks: {
      ...collection.hooks,
      // A password change or reset revokes the user's tokens (before the mail about it is written, which says so).
      ...(users
        ? {
            beforeChange: [...(collection.hooks?.beforeChange ?? []), revokeTokensOnPasswordChange],
            afterOperation: [revokeTokensOnPasswordReset, ...(collection.hooks?.afterOperation ?? [])],
          }
        : {}),
      beforeOperation: [
        refuseReadOnlyTokenWrites,
        ...(users ? [refuseCredentialChangesByToken] : []),
        ...(collection.hooks?.beforeOperation ?? []),
      ],
      ...(users ? { me: [meByToken, ...(collection.hooks?.me ?? [])] } : {}),
    },
  }
}

function withGlobalTokenRules(global: GlobalConfig): GlobalConfig {
  return { ...global, hooks: { ...global.hooks, beforeChange: [refuseReadOnlyTokenGlobalWrites, ...(global.hooks?.beforeChange ?? [])] } }
}

/**
 * Personal access tokens: the AccessTokens collection, the strategy on Users
 * that accepts them, and the rules that hold whatever path a token takes
 * (read scope writes nothing; no credential changes; no new tokens); a
 * password change or reset revokes them (unless kept, visibly, with the change).
 *
 * Payload's own `useAPIKey` gives each user one unnamed key with no scope,
 * expiry or last use, readable back by the user: not what a token that may
 * leak from a script needs. Placed after every plugin that adds collections
 * or endpoints, so it sees them all.
 */
export const accessTokensPlugin = (): Plugin => (config: Config): Config => ({
  ...config,
  collections: [...(config.collections ?? []), AccessTokens].map(withTokenRules),
  globals: (config.globals ?? []).map(withGlobalTokenRules),
  endpoints: (config.endpoints ?? []).map(guardEndpoint),
})
