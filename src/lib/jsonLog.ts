/**
 * The operational log: one JSON line per request (src/server/observability.ts)
 * and per job run (jobs/observeJob.ts), on stdout. Every string is passed
 * through redactCredentials, and the records are built from a fixed set of
 * fields (kinds, statuses, ids, durations), never from headers, cookies,
 * bodies or mail contents.
 */
import { writeSync } from 'node:fs'

import { processShared } from './processShared'
import { redactLogValue } from './redactCredentials'

export type LogRecord = { msg: string; level?: 'info' | 'warn' | 'error' } & Record<string, unknown>
type Sink = (line: string) => void

/** Past this many bytes waiting, the lines go out at once rather than at the next flush. */
const FLUSH_BYTES = 64 * 1024
/** How long a line may wait for others to go out with it. */
export const FLUSH_MS = 50

/**
 * Standard output, a batch every FLUSH_MS (or 64 KB): under load a web process logs tens of
 * thousands of requests a second. One write (a system call) per line cost more than serving a
 * cached page's headers; one per turn of the event loop still cost ~6 µs per cached hit (a
 * turn serves a few requests, and each write to a pipe wakes its reader). Lines go out in the
 * order they are handed over (request lines come in batches, up to 50 ms after their requests,
 * each with its own time: src/server/observability.ts); whatever is waiting is written
 * synchronously when the process exits, so an exit does not lose the last lines (a SIGKILL
 * loses at most FLUSH_MS of them, and the request batch waiting before them).
 */
function batchedStdout(): Sink {
  let waiting: string[] = []
  let bytes = 0
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (waiting.length === 0) return
    const text = waiting.join('')
    waiting = []
    bytes = 0
    process.stdout.write(text)
  }
  process.once('exit', () => {
    if (waiting.length === 0) return
    try {
      writeSync(1, waiting.join(''))
    } catch {
      // Standard output is gone: nothing left to tell.
    }
    waiting = []
  })
  return (line) => {
    waiting.push(line)
    bytes += line.length
    if (bytes >= FLUSH_BYTES) return flush()
    if (!scheduled) {
      scheduled = true
      setTimeout(flush, FLUSH_MS).unref()
    }
  }
}

const sink = processShared('jsonLogSink', () => ({ write: batchedStdout() }))

/** `at`: when it happened (epoch ms), if not now. */
export function logLine(record: LogRecord, at?: number): void {
  const line = JSON.stringify({ time: timestamp(at), level: 'info', ...(redactLogValue(record) as LogRecord) })
  sink.write(line + '\n')
}

/** A time (now by default) as ISO 8601, made once per millisecond: a busy web process logs many lines in each. */
let lastMs = 0
let lastIso = ''
function timestamp(at = Date.now()): string {
  if (at !== lastMs) {
    lastMs = at
    lastIso = new Date(at).toISOString()
  }
  return lastIso
}

/** `at`: when the request ended (epoch ms), if not now — its line may be written a moment later (observability.ts). */
export type RequestRecord = { method: string | undefined; route: string; status: number; durationMs: number; cache?: string; requestId: string; at?: number }

/** What needs no escaping in a JSON string nor any redaction: an HTTP method, a route kind, a cache outcome, a sane request id. */
const PLAIN = /^[A-Za-z0-9._:@-]{0,128}$/

/**
 * The request line (one per request, src/server/observability.ts), the same JSON as
 * `logLine({ msg: 'request', … })` writes, built without the object copy, the redaction
 * walk and JSON.stringify — on a cache hit those were a fifth of the process's own work.
 * Every field is a number or a short token (checked here; anything else goes the general way).
 */
export function logRequest({ method = 'GET', route, status, durationMs, cache, requestId, at }: RequestRecord): void {
  if (!PLAIN.test(method) || !PLAIN.test(route) || !PLAIN.test(requestId) || (cache !== undefined && !PLAIN.test(cache))) {
    return logLine({ msg: 'request', method, route, status, durationMs, cache, requestId }, at)
  }
  const outcome = cache === undefined ? '' : `,"cache":"${cache}"`
  sink.write(`{"time":"${timestamp(at)}","level":"info","msg":"request","method":"${method}","route":"${route}","status":${status},"durationMs":${durationMs}${outcome},"requestId":"${requestId}"}\n`)
}

/** Tests capture the lines (and whatever else they want to grep) by replacing the sink; returns the previous one. */
export function setLogSink(write: Sink): Sink {
  const previous = sink.write
  sink.write = write
  return previous
}
