/**
 * The command and schedule registry: the shape every feature plugin uses to
 * offer work that can be run by hand (`npm run blog -- <name>`), by pg-boss cron
 * (QUEUE_CONNECTION=pgboss) or by a per-minute system cron (`schedule:run`).
 *
 * A plugin adds to the registry through the Payload config, not a module-level
 * list, so the set belongs to the config it was composed into (tests may build
 * several) and every copy of this module (tsx and the Next bundle) sees the same:
 *
 *   export const searchPlugin = (): Plugin => (config) =>
 *     addCommands(config, [{
 *       name: 'reindex-search',
 *       description: 'Rebuild the search index of every published article',
 *       run: async (payload, io) => {
 *         const ids = await listIds(payload)
 *         for (const [i, id] of ids.entries()) { await reindex(payload, id); io.progress(i + 1, ids.length) }
 *         return `reindexed ${ids.length} articles`
 *       },
 *     }])
 *
 *   // A schedule is a command with a cron expression (5 fields, APP_TIMEZONE):
 *   addSchedules(config, [{ name: 'publish-scheduled', cron: '* * * * *', description: '…', run }])
 *
 * `run` must be idempotent and return a one-line summary; the CLI prints it as
 * the last line, the queue worker logs it.
 */
import type { Config, Payload } from 'payload'

export type CommandIO = {
  /** A line of progress for a person watching (stdout in the CLI, the logger in a worker). */
  log(line: string): void
  /** `done` of `total` items handled; the CLI draws it, workers ignore it. */
  progress(done: number, total: number): void
}

export type BlogCommand = {
  /** kebab-case, unique across plugins: `reindex-search`, `sync-article-view-count`. */
  name: string
  /** One line for `npm run blog -- --help`. */
  description: string
  /** Arguments after the name, for `--help` (`<file.xml> [--dry-run]`); a command without it takes none. */
  usage?: string
  /**
   * Does the work and returns a one-line summary ("synced 120 articles"). `args`
   * are the words after the name (`npm run blog -- import:wordpress site.xml --dry-run`).
   * A `CommandFailure` is printed as its message alone (a bad file, not a bug).
   */
  run: (payload: Payload, io: CommandIO, args?: string[]) => Promise<string>
}

/** A failure the person running the command caused (a missing or bad file): the CLI prints its message, no stack. */
export class CommandFailure extends Error {}

export type BlogSchedule = BlogCommand & {
  /** A 5-field cron expression, read in APP_TIMEZONE (default UTC): `0 0 * * *` is daily at midnight. */
  cron: string
}

/** A queue job: a plain, idempotent handler of `(payload, data)` and its retry policy. */
export type JobDefinition<D = never> = {
  handler: (payload: Payload, data: D) => Promise<void>
  /** pg-boss workers of this queue per working process (default 1): for jobs that mostly wait on the network. */
  concurrency?: number
  /**
   * The longest one run may take before pg-boss fails it (its default: 15 min, at most 24 h). Only for
   * long jobs: a worker that dies is noticed by the heartbeat within seconds whatever this is.
   */
  expireInSeconds?: number
} & (
  | {
      /** Tries in all: the first run plus retries with exponential backoff. */
      tries: number
      external?: false
    }
  | {
      /**
       * The job talks to another system (mail, webhooks, imports' media): it is
       * retried with backoff and jitter for the retry window (JOB_RETRY_WINDOW_SECONDS,
       * default 24 h; jobs/retryPolicy.ts) before it is dead-lettered.
       */
      external: true
      tries?: never
    }
)

export type Registry = { commands: BlogCommand[]; schedules: BlogSchedule[]; jobs: Record<string, JobDefinition<never>> }

const KEY = 'inkwellJobs'
const WORD = '[a-z][a-z0-9]*(-[a-z0-9]+)*'
// kebab-case, optionally `group:action` for commands that belong together (import:wordpress, export:json).
const NAME = new RegExp(`^${WORD}(:${WORD})?$`)

function registryOf(config: Pick<Config, 'custom'>): Registry {
  const existing = (config.custom as Record<string, unknown> | undefined)?.[KEY] as Registry | undefined
  return existing ?? { commands: [], schedules: [], jobs: {} }
}

function withRegistry(config: Config, registry: Registry): Config {
  return { ...config, custom: { ...config.custom, [KEY]: registry } }
}

function assertNewName(registry: Registry, name: string): void {
  if (!NAME.test(name)) throw new Error(`blog command "${name}": names are kebab-case (a-z, 0-9, -), optionally group:name`)
  if (registry.commands.some((c) => c.name === name) || registry.schedules.some((s) => s.name === name) || name in registry.jobs) {
    throw new Error(`blog command "${name}" is registered twice`)
  }
}

/** Adds commands runnable by hand with `npm run blog -- <name>`. */
export function addCommands(config: Config, commands: BlogCommand[]): Config {
  const registry = registryOf(config)
  for (const command of commands) assertNewName(registry, command.name)
  return withRegistry(config, { ...registry, commands: [...registry.commands, ...commands] })
}

/** Adds cron schedules; each is also a command of the same name. */
export function addSchedules(config: Config, schedules: BlogSchedule[]): Config {
  const registry = registryOf(config)
  for (const schedule of schedules) {
    assertNewName(registry, schedule.name)
    if (schedule.cron.trim().split(/\s+/).length !== 5) throw new Error(`schedule "${schedule.name}": cron needs 5 fields, got "${schedule.cron}"`)
  }
  return withRegistry(config, { ...registry, schedules: [...registry.schedules, ...schedules] })
}

/** Adds queue jobs (enqueued with `enqueue(req, name, data)`); declare their data in `JobData`. */
export function addJobs(config: Config, jobs: Record<string, JobDefinition<never>>): Config {
  const registry = registryOf(config)
  for (const name of Object.keys(jobs)) assertNewName(registry, name)
  return withRegistry(config, { ...registry, jobs: { ...registry.jobs, ...jobs } })
}

/** What the running Payload instance was composed with. */
export function registeredCommands(payload: Payload): Registry {
  return registryOf(payload.config)
}
