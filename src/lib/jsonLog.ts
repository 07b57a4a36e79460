/**
 * The operational log: one JSON line per request (src/server/observability.ts)
 * and per job run (jobs/observeJob.ts), on stdout. Every string is passed
 * through redactCredentials, and the records are built from a fixed set of
 * fields (kinds, statuses, ids, durations), never from headers, cookies,
 * bodies or mail contents.
 */
import { processShared } from './processShared'
import { redactLogValue } from './redactCredentials'

export type LogRecord = { msg: string; level?: 'info' | 'warn' | 'error' } & Record<string, unknown>
type Sink = (line: string) => void

const sink = processShared('jsonLogSink', () => ({ write: ((line: string) => void process.stdout.write(line)) as Sink }))

export function logLine(record: LogRecord): void {
  const line = JSON.stringify({ time: new Date().toISOString(), level: 'info', ...(redactLogValue(record) as LogRecord) })
  sink.write(line + '\n')
}

/** Tests capture the lines (and whatever else they want to grep) by replacing the sink; returns the previous one. */
export function setLogSink(write: Sink): Sink {
  const previous = sink.write
  sink.write = write
  return previous
}
