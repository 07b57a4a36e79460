/**
 * The query plans behind a missed figure, as PostgreSQL ran them: auto_explain (a contrib module
 * shipped with the server) is switched on for one database for new connections only
 * (ALTER DATABASE … SET session_preload_libraries), the slow path is run again through the
 * application, and the plans (EXPLAIN ANALYZE with buffers) are read back from the server's log.
 * Connections opened before the switch, the measured ones, never pay auto_explain's overhead.
 *
 * Needs a superuser (the benches' postgres role) and the server's log file on this machine
 * (PG_LOG_FILE, else the newest /var/log/postgresql/*.log); without them it says why and shows nothing.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs'
import path from 'node:path'

import { admin } from './adminDatabase'

export type CapturedPlan = { ms: number; query: string; plan: string[] }

function logFile(): string | undefined {
  if (process.env.PG_LOG_FILE) return process.env.PG_LOG_FILE
  const dir = '/var/log/postgresql'
  if (!existsSync(dir)) return undefined
  const logs = readdirSync(dir).filter((f) => f.endsWith('.log')).map((f) => path.join(dir, f))
  return logs.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
}

function readFrom(file: string, offset: number): string {
  const size = statSync(file).size
  if (size <= offset) return ''
  const buffer = Buffer.alloc(size - offset)
  const fd = openSync(file, 'r')
  try {
    readSync(fd, buffer, 0, buffer.length, offset)
  } finally {
    closeSync(fd)
  }
  return buffer.toString('utf8')
}

/**
 * Runs `run` (which must open new connections: start a server, boot Payload) with auto_explain on
 * for `database`, logging every statement slower than `minMs`; returns their plans, slowest first.
 */
export async function capturePlans(database: string, minMs: number, run: () => Promise<void>): Promise<CapturedPlan[] | string> {
  const file = logFile()
  if (!file) return 'no PostgreSQL log file found on this machine (set PG_LOG_FILE)'
  const quoted = `"${database.replace(/"/g, '""')}"`
  const settings: [string, string][] = [
    ['session_preload_libraries', 'auto_explain'],
    ['auto_explain.log_min_duration', `${minMs}ms`],
    ['auto_explain.log_analyze', 'on'],
    ['auto_explain.log_buffers', 'on'],
    ['auto_explain.log_nested_statements', 'on'],
  ]
  try {
    for (const [name, value] of settings) await admin(`alter database ${quoted} set ${name} = '${value}'`)
  } catch (error) {
    return `auto_explain could not be switched on: ${(error as Error).message}`
  }
  const offset = statSync(file).size
  try {
    await run()
  } finally {
    for (const [name] of settings) await admin(`alter database ${quoted} reset ${name}`)
  }
  return parsePlans(readFrom(file, offset), database)
}

/** The auto_explain entries of `database` in a piece of the server's log (text format, one entry per prefixed line and its continuations). */
export function parsePlans(log: string, database: string): CapturedPlan[] {
  const entries = log.split(/\n(?=\d{4}-\d\d-\d\d )/)
  const plans: CapturedPlan[] = []
  for (const entry of entries) {
    if (!entry.includes(`@${database} `)) continue
    const head = /LOG:\s+duration: ([\d.]+) ms\s+plan:/.exec(entry)
    if (!head) continue
    const lines = entry.split('\n').slice(1).map((l) => l.replace(/^\t/, ''))
    const textAt = lines.findIndex((l) => l.startsWith('Query Text:'))
    const planAt = lines.findIndex((l, i) => i > textAt && l.includes('(cost='))
    const query = lines.slice(textAt, planAt > 0 ? planAt : textAt + 1).join(' ').replace(/^Query Text:\s*/, '').replace(/\s+/g, ' ')
    plans.push({ ms: Number(head[1]), query, plan: planAt > 0 ? lines.slice(planAt).filter((l) => l.trim()) : [] })
  }
  // The same statement run many times: its slowest run.
  const slowest = new Map<string, CapturedPlan>()
  for (const plan of plans) if ((slowest.get(plan.query)?.ms ?? -1) < plan.ms) slowest.set(plan.query, plan)
  return [...slowest.values()].sort((a, b) => b.ms - a.ms)
}

/** A plan for the report: the statement (shortened) and the plan's first lines. */
export function formatPlan(plan: CapturedPlan, maxLines = 25): string {
  const query = plan.query.length > 600 ? `${plan.query.slice(0, 600)}…` : plan.query
  const shown = plan.plan.slice(0, maxLines)
  const more = plan.plan.length > maxLines ? [`  … ${plan.plan.length - maxLines} more lines`] : []
  return [`-- ${plan.ms.toFixed(1)} ms: ${query}`, ...shown, ...more].join('\n')
}
