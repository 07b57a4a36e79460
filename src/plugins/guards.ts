import type { CollectionConfig, Config, Plugin } from 'payload'

import { guardSortPaths } from '../../hooks/guardSortPaths'
import { authSecretFields, timestampFields } from '../fields/serverOwned'

/**
 * Rules every collection obeys, whoever added it, applied once here:
 *  - timestamps are written by the server only (no reply "dated 2099");
 *  - the authentication fields of auth collections can be neither written,
 *    read, filtered nor sorted on by a client, directly or across a relationship.
 * Last in the plugin list, so it sees every collection.
 */
export const guardsPlugin = (): Plugin => (config: Config): Config => ({
  ...config,
  collections: (config.collections ?? []).map(guardCollection),
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
    hooks: { ...collection.hooks, beforeOperation: [guardSortPaths, ...(collection.hooks?.beforeOperation ?? [])] },
  }
}
