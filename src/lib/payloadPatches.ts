/**
 * Every place Inkwell reaches inside a Payload instance instead of using an
 * extension point, in one file, because Payload 3.90 has none for these:
 *
 *  1. onDestroy(payload, fn): shutdown work before `payload.destroy()` closes the
 *     database. Payload has no shutdown hook (config.onInit has no counterpart),
 *     and destroy() is the one path every process takes (closePayload). Wraps
 *     `payload.destroy` once per instance; callbacks run in reverse order of
 *     registration (the last plugin started is the first stopped).
 *  2. installAfterCommit / afterCommit(req, fn): work after the request's
 *     transaction commits (dropped if it rolls back). Payload's hooks run inside
 *     the transaction and it has no after-commit hook, so the adapter's
 *     `commitTransaction` / `rollbackTransaction` are wrapped once per adapter.
 *  3. onAuthenticated(payload, fn): every successful authentication, whatever
 *     the strategy. `auth.strategies` on a collection adds strategies, but the
 *     built-in ones (local JWT, API keys) are created by Payload at init, so the
 *     assembled `payload.authStrategies` is wrapped.
 *
 * tests/integration/payload-patches.test.ts fails when a Payload upgrade
 * changes the shape these rely on; when it does, look for a real hook first.
 */
import type { AuthStrategy, Payload, PayloadRequest, TypedUser } from 'payload'

type Callback = () => void | Promise<void>

// ---- 1. shutdown ----

const DESTROY = Symbol.for('inkwell.onDestroy')
type WithDestroyCallbacks = { [DESTROY]?: Callback[] }

/** Runs `callback` when `payload.destroy()` is called, before the database closes. */
export function onDestroy(payload: Payload, callback: Callback): void {
  const instance = payload as Payload & WithDestroyCallbacks
  if (instance[DESTROY]) {
    instance[DESTROY].push(callback)
    return
  }
  const callbacks = (instance[DESTROY] = [callback])
  const destroy = payload.destroy
  const stopThenDestroy = async () => {
    for (const run of [...callbacks].reverse()) await run()
    payload.destroy = destroy
    delete instance[DESTROY]
    await destroy.call(payload)
  }
  // A second destroy() while the callbacks run waits for the same shutdown.
  let stopping: Promise<void> | undefined
  payload.destroy = () => (stopping ??= stopThenDestroy())
}

// ---- 2. after commit ----

type Adapter = {
  commitTransaction: (id: unknown) => Promise<void>
  rollbackTransaction: (id: unknown) => Promise<void>
  __inkwellAfterCommit?: Map<string, Callback[]>
}

export function installAfterCommit(payload: Payload, onError: (error: unknown) => void): void {
  const db = payload.db as unknown as Adapter
  if (db.__inkwellAfterCommit) return
  const pending = (db.__inkwellAfterCommit = new Map())
  const commit = db.commitTransaction.bind(db)
  const rollback = db.rollbackTransaction.bind(db)
  db.commitTransaction = async (incoming) => {
    const id = String(incoming instanceof Promise ? await incoming : incoming)
    await commit(id)
    const callbacks = pending.get(id) ?? []
    pending.delete(id)
    for (const callback of callbacks) {
      // Not awaited by the request: the write is done, the work runs beside it.
      void Promise.resolve().then(callback).catch(onError)
    }
  }
  db.rollbackTransaction = async (incoming) => {
    const id = String(incoming instanceof Promise ? await incoming : incoming)
    pending.delete(id)
    await rollback(id)
  }
}

/** Runs `callback` once the request's transaction commits; at once when there is none. */
export async function afterCommit(req: PayloadRequest, callback: Callback): Promise<void> {
  const db = req.payload.db as unknown as Adapter
  const id = req.transactionID ? String(await req.transactionID) : undefined
  if (!id || !db.__inkwellAfterCommit) {
    setImmediate(() => void Promise.resolve().then(callback).catch((e) => req.payload.logger.error(e)))
    return
  }
  const list = db.__inkwellAfterCommit.get(id) ?? []
  list.push(callback)
  db.__inkwellAfterCommit.set(id, list)
}

// ---- 3. authentication ----

/** Calls `callback` with the user of every successful authentication, by any strategy. */
export function onAuthenticated(payload: Payload, callback: (user: TypedUser) => void): void {
  payload.authStrategies = payload.authStrategies.map(
    (strategy): AuthStrategy => ({
      ...strategy,
      authenticate: async (args) => {
        const result = await strategy.authenticate(args)
        if (result.user) callback(result.user)
        return result
      },
    }),
  )
}

// ---- 4. a session that could not be looked up ----

/** Headers of requests whose credentials were not checked because the database was away (see below). */
const sessionLookupFailed = new WeakSet<Headers>()

/**
 * Payload's strategies swallow their errors: a signed-in request whose session lookup failed because
 * the database was away goes on as anonymous, and is refused 403 where it should have been told to
 * retry. Each strategy is wrapped: a request with credentials that found no user while the database
 * does not answer is remembered, and `sessionLookupFailedFor(req)` says so (the guards plugin's
 * after-error hook then answers 503 with Retry-After).
 */
export function watchSessionLookups(payload: Payload, databaseAnswers: () => Promise<boolean>): void {
  payload.authStrategies = payload.authStrategies.map(
    (strategy): AuthStrategy => ({
      ...strategy,
      authenticate: async (args) => {
        const result = await strategy.authenticate(args)
        const credentials = /(?:^|;\s*)payload-token=/.test(args.headers.get('cookie') ?? '') || Boolean(args.headers.get('authorization'))
        if (!result.user && credentials && !(await databaseAnswers())) sessionLookupFailed.add(args.headers)
        return result
      },
    }),
  )
}

export function sessionLookupFailedFor(req: Pick<PayloadRequest, 'headers'>): boolean {
  return Boolean(req.headers) && sessionLookupFailed.has(req.headers)
}
