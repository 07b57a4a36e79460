import type { Config } from 'payload'

/** Placeholder until the admin view lands. */
export function queueConsoleAdmin(config: Config): Config {
  return config
}
