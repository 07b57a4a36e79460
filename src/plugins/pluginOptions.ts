/**
 * How a plugin's options reach code that runs later with only the Payload
 * instance in hand (jobs, route handlers, admin server components): the plugin
 * keeps them under its own key in `config.custom` (server-only: Payload never
 * sends `custom` to the admin's browser), and reads them back through
 * `pluginOptionsOf`. So nothing of a plugin calls getEnv() at run time; it gets
 * what the composition (src/plugins/index.ts) gave it.
 */
import type { Config, Payload } from 'payload'

/** The config with `options` kept under `key`. */
export function withPluginOptions<T>(config: Config, key: string, options: T): Config {
  return { ...config, custom: { ...config.custom, [key]: options } }
}

/** Where inkwellPlugins records which plugins it composed (src/plugins/index.ts). */
export const COMPOSITION_KEY = 'inkwell:composition'

/**
 * Whether the plugin `name` is in the composition, for code outside the plugin
 * that shows its parts (the reader site shows no search box without search).
 * A config not built by inkwellPlugins records nothing: everything counts as composed.
 */
export function isComposed(payload: Payload, name: string): boolean {
  const composed = pluginOptionsOf<readonly string[]>(payload, COMPOSITION_KEY)
  return !composed || composed.includes(name)
}

/** The options a plugin kept under `key`, or undefined when that plugin is not in the config. */
export function pluginOptionsOf<T>(payload: Payload, key: string): T | undefined {
  return (payload.config.custom as Record<string, unknown> | undefined)?.[key] as T | undefined
}
