/**
 * What a switched session may not do, and the log of what it does, on every
 * path (REST, GraphQL, the admin, the reader site, the Local API with the
 * switched user): hooks the plugin puts on every collection and global.
 *
 *  - it creates no access token (one would outlive "switch back"), changes no
 *    password or e-mail address, and unlinks no sign-in provider (`403`);
 *  - every write it makes (create, update, delete; globals too) is a row of
 *    the user-switches log: the owner (`actor`) acting as the user (`target`),
 *    the operation and the document, and a line in the server log.
 */
import {
  APIError,
  type CollectionAfterChangeHook,
  type CollectionAfterDeleteHook,
  type CollectionBeforeOperationHook,
  type CollectionConfig,
  type GlobalAfterChangeHook,
  type GlobalConfig,
  type PayloadRequest,
} from 'payload'

import { normalEmail } from '../../lib/emailAddress'
import { validationTranslator } from '../../lib/i18n/request'
import { switchedFrom } from '../../lib/switchedSession'

export const SWITCH_LOG = 'user-switches'

const refuse = (req: PayloadRequest) => {
  throw new APIError(validationTranslator(req)('error.switched.noCredentials'), 403, undefined, true)
}

async function changesEmail(req: PayloadRequest, id: unknown, email: unknown): Promise<boolean> {
  if (typeof email !== 'string') return false
  if (id === undefined || id === null) return true
  const stored = await req.payload.findByID({ collection: 'users', id: id as number, depth: 0, overrideAccess: true, disableErrors: true, req, select: { email: true } })
  return normalEmail(email) !== (stored as { email?: string } | null)?.email
}

/** Tokens, passwords, e-mail addresses and sign-in providers stay the user's own: a switched session touches none. */
export const refuseCredentialActsWhileSwitched: CollectionBeforeOperationHook = async ({ args, collection, operation, req }) => {
  if (!switchedFrom(req.user) || (args as { overrideAccess?: boolean }).overrideAccess) return args
  if (collection.slug === 'access-tokens' && operation === 'create') refuse(req)
  if (collection.slug === 'oauth-identities' && (operation === 'create' || operation === 'delete' || operation === 'deleteByID')) refuse(req)
  if (collection.slug === 'users' && (operation === 'update' || operation === 'updateByID')) {
    const data = (args as { data?: { password?: unknown; email?: unknown } }).data
    if (typeof data?.password === 'string' && data.password !== '') refuse(req)
    if (await changesEmail(req, (args as { id?: unknown }).id, data?.email)) refuse(req)
  }
  return args
}

async function logAct(req: PayloadRequest, operation: string, subject: string): Promise<void> {
  const from = switchedFrom(req.user)
  if (!from || !req.user) return
  await req.payload.create({
    collection: SWITCH_LOG,
    data: { actor: from.id, target: req.user.id as number, action: 'act', operation, subject },
    overrideAccess: true,
    depth: 0,
    req,
  })
  req.payload.logger.info(`user switch: user ${from.id} acting as user ${req.user.id}: ${operation} ${subject}`)
}

const logChange: CollectionAfterChangeHook = async ({ collection, doc, operation, req }) => {
  await logAct(req, operation, `${collection.slug} ${doc.id}`)
  return doc
}

const logDelete: CollectionAfterDeleteHook = async ({ collection, id, req }) => {
  await logAct(req, 'delete', `${collection.slug} ${id}`)
}

const logGlobalChange: GlobalAfterChangeHook = async ({ doc, global, req }) => {
  await logAct(req, 'update', `global ${global.slug}`)
  return doc
}

export function withSwitchedActRules(collection: CollectionConfig): CollectionConfig {
  if (collection.slug === SWITCH_LOG) return collection
  const hooks = collection.hooks ?? {}
  return {
    ...collection,
    hooks: {
      ...hooks,
      beforeOperation: [refuseCredentialActsWhileSwitched, ...(hooks.beforeOperation ?? [])],
      afterChange: [...(hooks.afterChange ?? []), logChange],
      afterDelete: [...(hooks.afterDelete ?? []), logDelete],
    },
  }
}

export function withSwitchedActLog(global: GlobalConfig): GlobalConfig {
  return { ...global, hooks: { ...global.hooks, afterChange: [...(global.hooks?.afterChange ?? []), logGlobalChange] } }
}
