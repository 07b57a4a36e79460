/**
 * Runs callbacks after the request's database transaction has committed (and
 * drops them if it rolls back). Payload has no such hook, so the adapter's
 * commit/rollback are wrapped once per Payload instance.
 */
import type { Payload, PayloadRequest } from 'payload'

type Callback = () => void | Promise<void>
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
