import type { CollectionConfig, Config, GlobalConfig, Plugin } from 'payload'

import { databaseOutageAsUnavailable, requireDocumentBody, requireNumericId, uploadTooLarge, wordClientErrors } from '../../../hooks/clientErrors'
import { guardSortPaths } from '../../../hooks/guardSortPaths'
import { refuseForbiddenCharacters, refuseForbiddenCharactersInGlobal } from '../../../hooks/refuseForbiddenCharacters'
import { refuseNulInQuery } from '../../../hooks/refuseNulInQuery'
import { databaseAnswers } from '../../lib/databaseOutage'
import { translator } from '../../lib/i18n'
import { watchSessionLookups } from '../../lib/payloadPatches'
import { poolIfConnected } from '../../lib/pool'
import { authSecretFields, timestampFields } from '../../fields/serverOwned'

/**
 * Rules every collection obeys, whoever added it, applied once here:
 *  - timestamps are written by the server only (no reply "dated 2099");
 *  - the authentication fields of auth collections can be neither written,
 *    read, filtered nor sorted on by a client, directly or across a relationship;
 *  - no text, in any collection or global, holds a character that PostgreSQL
 *    or XML refuses (400 naming the field), and no query asks for one (400);
 *  - a client's mistake (no readable body, an id that names nothing, a file
 *    over the upload limit) answers 4xx naming the field and the rule, in the
 *    request's language, never 500;
 *  - while the database is away, a request that needed it answers 503 with
 *    Retry-After (src/lib/databaseOutage.ts), never 500.
 * Last in the plugin list, so it sees every collection.
 */
export const guardsPlugin = (): Plugin => (config: Config): Config => ({
  ...config,
  collections: (config.collections ?? []).map(guardCollection),
  globals: (config.globals ?? []).map(guardGlobal),
  hooks: { ...config.hooks, afterError: [...(config.hooks?.afterError ?? []), wordClientErrors, databaseOutageAsUnavailable] },
  // Payload's one message for a file over the limit; wordClientErrors tells it in the request's language.
  upload: config.upload?.limits?.fileSize ? { ...config.upload, responseOnLimit: uploadTooLarge(translator('en'), config.upload.limits.fileSize) } : config.upload,
  onInit: async (payload) => {
    await config.onInit?.(payload)
    watchSessionLookups(payload, () => databaseAnswers(poolIfConnected(payload)))
  },
})

function guardCollection(collection: CollectionConfig): CollectionConfig {
  const names = new Set(collection.fields.flatMap((f) => ('name' in f ? [f.name] : [])))
  const serverOwned = [
    ...(collection.timestamps === false ? [] : timestampFields()),
    ...(collection.auth ? authSecretFields(collection.auth === true ? {} : collection.auth) : []),
  ].filter((f) => 'name' in f && !names.has(f.name))
  return {
    ...collection,
    fields: [...collection.fields, ...serverOwned],
    hooks: {
      ...collection.hooks,
      beforeOperation: [requireNumericId, requireDocumentBody, guardSortPaths, refuseNulInQuery, ...(collection.hooks?.beforeOperation ?? [])],
      beforeValidate: [refuseForbiddenCharacters, ...(collection.hooks?.beforeValidate ?? [])],
    },
  }
}

function guardGlobal(global: GlobalConfig): GlobalConfig {
  return { ...global, hooks: { ...global.hooks, beforeValidate: [refuseForbiddenCharactersInGlobal, ...(global.hooks?.beforeValidate ?? [])] } }
}
