/**
 * `npm run blog -- <command>`: every registered command, schedule and queue
 * job, runnable by hand, with progress on stdout and a summary as the last line.
 *
 *   npm run blog -- --help
 *   npm run blog -- recount-unread-notifications
 *   npm run blog -- schedule:run [--at 2026-11-24T00:00Z]   (per-minute system cron)
 *   npm run blog -- job notify-article-author '{"replyId":12}'
 *
 * Exit codes: 0 done, 1 the command failed, 2 unknown command or bad arguments,
 * 78 bad configuration.
 */
import type { Payload, SanitizedConfig } from 'payload'

import { bootPayload, closePayload, loadEnvOrExit } from '../src/lib/boot'
import { CommandFailure, registeredCommands, type BlogCommand } from './commands'
import { terminalIO } from './io'
import { jobDefinition } from './queue'
import { runDueSchedules } from './scheduleRun'

// A one-shot process sends and runs; it never takes jobs from the queue's workers.
// Passed on the first read, before payload.config.ts builds the configuration.
const overrides = { worker: false }
loadEnvOrExit(overrides)

type Builtin = {
  name: string
  usage: string
  description: string
  /** Reads the arguments before anything boots, so a mistake answers at once (exit 2). */
  prepare: (args: string[]) => (payload: Payload) => Promise<string>
}

class UsageError extends Error {}

const BUILTINS: Builtin[] = [
  {
    name: 'schedule:run',
    usage: 'schedule:run [--at <ISO time>]',
    description: 'Run the schedules due in this minute (or the minute given), once across hosts',
    prepare: (args) => {
      const at = option(args, '--at')
      const now = at === undefined ? new Date() : new Date(at)
      if (Number.isNaN(now.getTime())) throw new UsageError(`--at: "${at}" is not a date and time (e.g. 2026-11-24T00:00Z)`)
      return (payload) => runDueSchedules(payload, { now, timeZone: loadEnvOrExit().timeZone, io: (name) => terminalIO(name) })
    },
  },
  {
    name: 'job',
    usage: "job <name> '<JSON data>'",
    description: 'Run one queue job in this process, now, with the given data',
    prepare: ([name, json]) => {
      if (!name || json === undefined) throw new UsageError("job needs a name and its data: job notify-article-author '{\"replyId\":12}'")
      let data: unknown
      try {
        data = JSON.parse(json)
      } catch {
        throw new UsageError(`job ${name}: the data is not JSON: ${json}`)
      }
      return async (payload) => {
        await jobDefinition(payload, name).handler(payload, data as never)
        return `job ${name} done`
      }
    },
  },
]

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  return i === -1 ? undefined : args[i + 1]
}

function help(config: SanitizedConfig): string {
  const { commands, schedules, jobs } = registeredCommands({ config } as Payload)
  const width = Math.max(...[...commands, ...schedules].map((c) => c.name.length), ...BUILTINS.map((b) => b.usage.length)) + 2
  const line = (left: string, right: string) => `  ${left.padEnd(width)}${right}`
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)
  return [
    'Usage: npm run blog -- <command> [arguments]',
    '',
    'Commands:',
    // A command's arguments, when it takes any, on a line of their own under it.
    ...[...commands].sort(byName).flatMap((c) => [line(c.name, c.description), ...(c.usage ? [`  ${' '.repeat(width)}usage: ${c.name} ${c.usage}`] : [])]),
    '',
    'Schedules (also run by pg-boss cron, or by schedule:run):',
    ...[...schedules].sort(byName).map((s) => line(s.name, `${s.description}  [${s.cron}]`)),
    '',
    ...BUILTINS.map((b) => line(b.usage, b.description)),
    '',
    `Queue jobs: ${Object.keys(jobs).sort().join(', ') || 'none'}`,
  ].join('\n')
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv
  const { default: configPromise } = await import('../payload.config')
  const config = await configPromise
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(help(config))
    return 0
  }
  const { commands, schedules } = registeredCommands({ config } as Payload)
  const command: BlogCommand | undefined = [...commands, ...schedules].find((c) => c.name === name)
  const builtin = BUILTINS.find((b) => b.name === name)
  if (!command && !builtin) {
    console.error(`Unknown command "${name}". Run \`npm run blog -- --help\` for the list.`)
    return 2
  }

  let run: (payload: Payload) => Promise<string>
  try {
    run = command ? (payload) => command.run(payload, terminalIO(name), args) : builtin!.prepare(args)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(error.message)
    return 2
  }

  const started = Date.now()
  const { payload, database } = await bootPayload({ log: () => {}, overrides })
  try {
    const summary = await run(payload)
    console.log(`✔ ${summary} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
    return 0
  } catch (error) {
    console.error(error instanceof CommandFailure ? `✖ ${name}: ${error.message}` : `✖ ${name} failed: ${(error as Error).stack ?? error}`)
    return 1
  } finally {
    await closePayload(payload)
    await database.stop().catch(() => {})
  }
}

process.exit(await main(process.argv.slice(2)))
