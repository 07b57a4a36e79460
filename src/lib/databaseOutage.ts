/**
 * "The database is not there right now" (issue 32 §4): a restart, a crash and
 * its recovery, a failover. Requests that need it answer 503 with
 * `Retry-After` instead of 500, so clients and load balancers retry: Payload's
 * REST handling (the guards plugin's after-error hook), the one-origin server
 * (src/server/index.ts) and the reader site's pages (src/server/renderCache.ts)
 * all decide with `isDatabaseUnavailable`. The pg pool replaces dead
 * connections on the next query, so nothing needs restarting once the
 * database accepts connections again.
 */

/** Seconds a client should wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5

/** What the API answers (Payload's error shape) while the database is away. */

/** Node's socket errors when the server is not there or went away. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])

/**
 * PostgreSQL's SQLSTATEs for a server going away or not yet back: class 08
 * (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown,
 * 57P03 cannot_connect_now ("the database system is starting up / in recovery mode").
 */
const SQLSTATES = /^(08\d{3}|57P0[123])$/

/**
 * node-postgres's own wording for a connection that broke or never came (it sets no code then), and
 * PostgreSQL's; found anywhere in a message, because Payload's transactions rethrow them as text alone
 * ("Error: cannot begin transaction: the database system is starting up").
 */
const PG_MESSAGES = /(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout|terminating connection due to administrator command|terminating connection due to (unexpected postmaster exit|crash of another server process)|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections))/i

/**
 * A socket error rethrown as text alone ("cannot begin transaction: connect ECONNREFUSED 127.0.0.1:5432"),
 * or a transaction whose `begin` failed with its cause dropped (the first statement on a dead connection).
 */
const SOCKET_MESSAGES = /\b(connect|read|write) (ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH)\b|cannot begin transaction/

/**
 * How `error` (or an error it wraps: drizzle and Payload wrap the driver's) speaks of an unreachable database:
 * 'database' when PostgreSQL or its driver says so; 'maybe' for a refused or broken connection, which may be
 * another system's (an SMTP or provider call), or a failed `begin` whose cause was dropped; undefined otherwise.
 */
export function outageKind(error: unknown): 'database' | 'maybe' | undefined {
  const seen = new Set<unknown>()
  let current: unknown = error
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current)
    const { code, message, cause, errors } = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown }
    if (typeof code === 'string' && SQLSTATES.test(code)) return 'database'
    if (typeof message === 'string' && PG_MESSAGES.test(message)) return 'database'
    if (typeof code === 'string' && SOCKET_CODES.has(code)) return 'maybe'
    if (typeof message === 'string' && SOCKET_MESSAGES.test(message)) return 'maybe'
    // AggregateError (a host name resolving to several addresses, each refused).
    if (Array.isArray(errors)) {
      const kinds = errors.map(outageKind)
      if (kinds.includes('database')) return 'database'
      if (kinds.includes('maybe')) return 'maybe'
    }
    current = cause
  }
  return undefined
}

type Probed = { query: (text: string) => Promise<unknown> }
const probes = new WeakMap<Probed, { at: number; answer: Promise<boolean> }>()

/**
 * Whether the database answers `select 1` within 2 s. Asked only after something failed, so a
 * "yes" is never reused (it may be a moment old when the database has just gone); a "no" is, for a
 * second, so an outage costs one probe a second per pool, however many requests fail.
 */
export function databaseAnswers(pool: Probed | undefined): Promise<boolean> {
  if (!pool) return Promise.resolve(false)
  const last = probes.get(pool)
  if (last && (last.at === 0 || Date.now() - last.at < 1000)) return last.answer
  const probe = { at: 0, answer: Promise.race([
    pool.query('select 1').then(() => true, () => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref()),
  ]) }
  probes.set(pool, probe) // shared while in flight
  void probe.answer.then((answers) => {
    if (answers) probes.delete(pool)
    else probe.at = Date.now()
  })
  return probe.answer
}

/**
 * True when `error` means the database is unreachable: PostgreSQL or its driver says so, or it
 * may be ('maybe') and the database does not answer a probe either (so a refused SMTP or provider
 * connection is not taken for a database outage).
 */
export async function isDatabaseUnavailable(error: unknown, pool: Probed | undefined): Promise<boolean> {
  const kind = outageKind(error)
  if (kind === 'database') return true
  return kind === 'maybe' && !(await databaseAnswers(pool))
}
