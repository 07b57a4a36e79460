import type { CollectionConfig, Config, Field } from 'payload'

/**
 * For plugins that decorate a collection another plugin added (search and
 * slugs on articles): the collection must be there already, so a plugin
 * listed too early fails at start with a message saying where it belongs,
 * instead of silently decorating nothing.
 */
export function decorateCollection(
  config: Config,
  slug: string,
  plugin: string,
  decorate: (collection: CollectionConfig) => CollectionConfig,
): Config {
  if (!config.collections?.some((c) => c.slug === slug)) {
    throw new Error(`${plugin}: add it after the plugin that adds the ${slug} collection (contentPlugin)`)
  }
  return { ...config, collections: config.collections.map((c) => (c.slug === slug ? decorate(c) : c)) }
}

/** `fields` with `added` right after the named top-level field: the place decides the admin form's order. */
export function insertFieldsAfter(fields: Field[], name: string, added: Field[]): Field[] {
  const at = fields.findIndex((f) => 'name' in f && f.name === name)
  if (at < 0) throw new Error(`no field "${name}" to insert ${added.map((f) => ('name' in f ? f.name : f.type)).join(', ')} after`)
  return [...fields.slice(0, at + 1), ...added, ...fields.slice(at + 1)]
}
