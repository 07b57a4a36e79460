import type { CollectionConfig, Config, GlobalConfig, Plugin } from 'payload'

/** The shape most Inkwell plugins share: add collections and globals to the config. */
export function addToConfig(parts: { collections?: CollectionConfig[]; globals?: GlobalConfig[] }): Plugin {
  return (config: Config): Config => ({
    ...config,
    collections: [...(config.collections ?? []), ...(parts.collections ?? [])],
    globals: [...(config.globals ?? []), ...(parts.globals ?? [])],
  })
}
