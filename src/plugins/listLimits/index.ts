/**
 * Bounds every collection's public list reads (hooks/capListLimit.ts): added
 * to all collections at once, after the other plugins added theirs, so a new
 * collection cannot forget it.
 */
import type { Config, Plugin } from 'payload'

import { capListLimit } from '../../../hooks/capListLimit'

export const listLimitsPlugin = (): Plugin => (config: Config): Config => ({
  ...config,
  collections: (config.collections ?? []).map((collection) => ({
    ...collection,
    hooks: { ...collection.hooks, beforeOperation: [...(collection.hooks?.beforeOperation ?? []), capListLimit] },
  })),
})
