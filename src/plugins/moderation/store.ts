/**
 * The classifier's counts in PostgreSQL (`moderation_tokens`: one row per
 * word, and two rows of totals, `#docs` and `#words`), learnt inside the
 * moderator's write so a rolled-back decision teaches nothing. Each process
 * keeps the model in memory, per Payload instance, and reloads it when it is
 * older than a minute (decisions made by other processes); its own decisions
 * update it at once.
 */
import type { Payload, PayloadRequest } from 'payload'

import { sql } from '@payloadcms/db-postgres'

import { query, transactionDb } from '../../lib/pool'
import { distinct, emptyModel, learn, type Model } from './classifier'

const RELOAD_MS = 60_000
const cache = new WeakMap<Payload, { model: Model; loadedAt: number; loading?: Promise<Model> }>()

type TokenRow = { token: string; spam: number; ham: number }

/**
 * The first load waits, so it reads in the request's transaction (a second
 * pooled connection per concurrent reply could starve the pool); a reload
 * runs beside the request, unawaited, on the pool.
 */
async function load(req: PayloadRequest, inTransaction: boolean): Promise<Model> {
  const sqlText = 'select token, spam, ham from moderation_tokens'
  const rows = inTransaction
    ? ((await (await transactionDb(req)).execute(sql.raw(sqlText))) as { rows: TokenRow[] }).rows
    : await query<TokenRow>(req.payload, sqlText)
  const model = emptyModel()
  for (const { token, spam, ham } of rows) {
    if (token === '#docs') model.docs = { spam, ham }
    else if (token === '#words') model.words = { spam, ham }
    else model.tokens.set(token, { spam, ham })
  }
  return model
}

export async function modelOf(req: PayloadRequest): Promise<Model> {
  const { payload } = req
  const entry = cache.get(payload)
  if (entry && Date.now() - entry.loadedAt < RELOAD_MS) return entry.model
  if (entry?.loading) return entry.model
  const loading = load(req, !entry)
  if (entry) {
    // Keep scoring with the old model while the new one loads.
    entry.loading = loading
    loading.then((model) => cache.set(payload, { model, loadedAt: Date.now() }), () => (entry.loading = undefined))
    return entry.model
  }
  const model = await loading
  cache.set(payload, { model, loadedAt: Date.now() })
  return model
}

/** Adds (sign 1) or takes back (sign -1) one reply's words as spam or ham, in the request's transaction. */
export async function learnReply(req: PayloadRequest, tokens: string[], label: 'spam' | 'ham', sign: 1 | -1): Promise<void> {
  const words = distinct(tokens)
  const db = await transactionDb(req)
  const rows = JSON.stringify([['#docs', 1], ['#words', words.length], ...words.map((w) => [w, 1])])
  const column = sql.raw(label === 'spam' ? 'spam' : 'ham')
  if (sign === 1) {
    await db.execute(sql`
      insert into moderation_tokens as t (token, ${column})
      select e->>0, (e->>1)::int from jsonb_array_elements(${rows}::jsonb) e
      on conflict (token) do update set ${column} = t.${column} + excluded.${column}`)
  } else {
    await db.execute(sql`
      update moderation_tokens t set ${column} = greatest(0, t.${column} - (e->>1)::int)
        from jsonb_array_elements(${rows}::jsonb) e where t.token = e->>0`)
  }
  const cached = cache.get(req.payload)
  if (cached) learn(cached.model, words, label, sign)
}
