/**
 * One notion of "published" for articles (see index.ts for Payload's rules).
 *
 * Who owns what:
 * - `_status` (Payload's, added by `versions.drafts`) OWNS the decision: the
 *   admin's Publish / Save draft / autosave / Unpublish and restore set it,
 *   and a draft save (`draft: true` without `_status: 'published'`) leaves the
 *   `articles` row alone and writes only a version.
 * - `status` (Inkwell's column) is its MIRROR on every row and version, kept
 *   equal by `mirrorStatus`: every raw SQL reader (publicArticleSql, search,
 *   sitemap, dashboard, indexes) keeps reading `status`, and API clients that
 *   write `status` alone (as before versions) are taken to mean `_status`
 *   (`normalizeStatus`). When both are sent, `_status` wins.
 * - A draft version always reads `status: 'draft'`, so the public rule
 *   (publicNow) applied to versions (`?draft=true`) never matches a draft.
 *
 * Draft-only saves (the row untouched) must change nothing readers see: the
 * plugin marks them (`markDraftOnly`) and `publishedOnly` wraps every
 * after-change hook of the other features (search index, slug translation,
 * webhooks, render-cache purge) so they skip them. On a save that does reach
 * the row, those hooks get as `previousDoc` the row as it was (the published
 * state), not Payload's default (the latest version, possibly a draft).
 *
 * A save that names neither `status` nor `_status` and is not a draft save
 * (an API client's PATCH of one field, a bulk edit of the category, the
 * translate-slug job, the importer) changes the PUBLISHED state and keeps a
 * pending draft (`keepPendingDraft`): Payload would start a save by id from
 * the latest version (publishing the pending draft with it), and a bulk save
 * from the row (making its version the latest, so the editor and the preview
 * lose the draft's text). Here the save starts from the row (the draft
 * version stops being `latest` for it, inside the save's transaction), and
 * afterwards the draft is made the latest again with the same change applied
 * to it (a draft save through Payload, hooks and access as the caller's), so
 * publishing it later does not undo the change. A pending draft is a latest
 * version that is a draft and newer than the row: any draft after a
 * published row, or a draft save after the row of an unpublished article
 * (a version written with the row carries the row's `updatedAt`; a draft-only
 * one the time of its save).
 */
import { sql } from '@payloadcms/db-postgres'
import type {
  CollectionAfterChangeHook,
  CollectionAfterOperationHook,
  CollectionBeforeChangeHook,
  CollectionBeforeOperationHook,
  PayloadRequest,
} from 'payload'

import { transactionDb } from '../../lib/pool'

const DRAFT_ONLY = 'inkwell:draftOnlySaves'
const ROW_BEFORE = 'inkwell:articleRowBefore'
const KEEP = 'inkwell:keepPendingDrafts'
const PENDING = 'inkwell:pendingDraftVersions'
type Id = number | string
/** A save that names no status: its change, to apply to the pending drafts too, and whether access applied to it. */
type Keep = { change: Record<string, unknown>; overrideAccess: boolean }
/** Article fields only the row holds current (updated by SQL, outside Payload's saves). */
const ROW_OWNED = ['viewCount', 'replyCount', 'lastReplyAt'] as const

function draftOnlySet(req: PayloadRequest): Set<Id> {
  const context = req.context as Record<string, unknown>
  return (context[DRAFT_ONLY] ??= new Set<Id>()) as Set<Id>
}
function rowsBefore(req: PayloadRequest): Map<Id, Record<string, unknown>> {
  const context = req.context as Record<string, unknown>
  return (context[ROW_BEFORE] ??= new Map()) as Map<Id, Record<string, unknown>>
}

/** True when this save of article `id` writes a version only (the `articles` row is left as it is). */
export function isDraftOnlySave(req: PayloadRequest, id: Id | undefined): boolean {
  const set = (req.context as Record<string, unknown>)[DRAFT_ONLY] as Set<Id> | undefined
  return !!set && (set.has('*') || (id !== undefined && set.has(String(id))))
}

function keepMap(req: PayloadRequest): Map<string, Keep> {
  const context = req.context as Record<string, unknown>
  return (context[KEEP] ??= new Map()) as Map<string, Keep>
}
/** Article id → the id of its pending draft version, while a save that keeps it runs. */
function pendingMap(req: PayloadRequest): Map<string, Id> {
  const context = req.context as Record<string, unknown>
  return (context[PENDING] ??= new Map()) as Map<string, Id>
}

/** The pending draft of article `id`: its latest version when that is a draft newer than the row (see the header). */
async function pendingDraftOf(req: PayloadRequest, id: Id): Promise<Id | undefined> {
  const db = await transactionDb(req)
  const result = (await db.execute(sql`
    select v.id from _articles_v v join articles a on a.id = v.parent_id
     where v.parent_id = ${Number(id)} and v.latest and v.version__status = 'draft'
       and (a.status = 'published' or v.version_updated_at > a.updated_at)
     order by v.updated_at desc limit 1`)) as { rows: { id: Id }[] }
  return result.rows[0]?.id
}

/** Marks version `versionId` as its article's latest or not, in the save's transaction. */
async function setLatest(req: PayloadRequest, versionId: Id, latest: boolean): Promise<void> {
  const db = await transactionDb(req)
  await db.execute(sql`update _articles_v set latest = ${latest} where id = ${Number(versionId)}`)
}

type Args = { data?: unknown; draft?: boolean; id?: Id; overrideAccess?: boolean }

/**
 * Before every write: `status` alone means `_status`, `_status` sets `status`;
 * and a draft-only save (Payload's own rule, updateDocument.js: `draft` and
 * not `_status: 'published'`; a restore with `draft`) is marked for the hooks.
 */
export const normalizeStatus: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  const a = args as Args
  const data = a.data && typeof a.data === 'object' && !Array.isArray(a.data) ? (a.data as Record<string, unknown>) : undefined
  if (data && (operation === 'update' || operation === 'updateByID') && !a.draft && !('status' in data) && !('_status' in data)) {
    // Names no status: changes the published state and keeps a pending draft (the header). By id, the save
    // must not start from the draft: the draft stops being the latest version for it (afterChange puts it back).
    keepMap(req).set(a.id === undefined ? '*' : String(a.id), { change: structuredClone(data), overrideAccess: a.overrideAccess !== false })
    const pending = a.id === undefined ? undefined : await pendingDraftOf(req, a.id)
    if (pending !== undefined) {
      pendingMap(req).set(String(a.id), pending)
      await setLatest(req, pending, false)
    }
  }
  if (data && (operation === 'create' || operation === 'update' || operation === 'updateByID')) {
    if (data._status === 'draft' || data._status === 'published') data.status = data._status
    else if (data.status === 'draft' || data.status === 'published') data._status = data.status
    else if (operation !== 'create' && !a.draft && a.id !== undefined) {
      // Neither: the article keeps the published state of its row (Payload would take `_status` from the
      // latest version, so a save of one field while a draft is pending would unpublish the article).
      const row = await req.payload.db.findOne({ collection: 'articles', where: { id: { equals: a.id } }, select: { status: true }, req })
      if (row) data._status = data.status = (row as { status?: string }).status === 'published' ? 'published' : 'draft'
    }
  }
  const draftOnly =
    ((operation === 'update' || operation === 'updateByID') && a.draft === true && data?._status !== 'published') ||
    (operation === 'restoreVersion' && a.draft === true)
  // (Payload calls this hook with 'update' for updateByID too, with `id`.) A bulk update or a restore names no
  // article id here (a restore's id is the version's): the mark then covers this operation's article saves.
  if (draftOnly) draftOnlySet(req).add(operation === 'update' && a.id !== undefined ? String(a.id) : '*')
  return args
}

/** The mark lasts one operation. */
export const clearDraftOnly: CollectionAfterOperationHook = ({ args, operation, req, result }) => {
  if (operation === 'updateByID' || operation === 'update' || operation === 'restoreVersion') {
    const set = (req.context as Record<string, unknown>)[DRAFT_ONLY] as Set<Id> | undefined
    if (set) {
      set.delete('*')
      const id = (args as Args).id
      if (id !== undefined) set.delete(String(id))
    }
    // (The draft save keepPendingDraft makes has the same id: the mark is the outer save's.)
    const keep = (req.context as Record<string, unknown>)[KEEP] as Map<string, Keep> | undefined
    const { id, draft } = args as Args
    if (!draft) keep?.delete(id === undefined ? '*' : String(id))
  }
  return result
}

/**
 * First of the article's before-change hooks: `status` follows `_status`, and
 * a draft-only save reads as a draft. The row as it was is kept for
 * `publishedOnly`.
 */
export const mirrorStatus: CollectionBeforeChangeHook = async ({ data, originalDoc, operation, req }) => {
  const id = originalDoc?.id as Id | undefined
  if (operation !== 'update' || id === undefined) {
    // A create always writes the row; Payload has set `_status` to 'draft' when it is a draft.
    const status = data._status === 'published' ? 'published' : 'draft'
    return { ...data, ...editedBy(req, data), _status: status, status }
  }
  if (isDraftOnlySave(req, id)) return { ...data, ...editedBy(req, data), _status: 'draft', status: 'draft' }
  const row = (await req.payload.db.findOne({ collection: 'articles', where: { id: { equals: id } }, req })) as Record<string, unknown> | null
  if (row) rowsBefore(req).set(String(id), row)
  // A bulk save that names no status starts from the row already: only its pending draft is to be noted.
  if (keepOf(req, id) && !pendingMap(req).has(String(id))) {
    const pending = await pendingDraftOf(req, id)
    if (pending !== undefined) pendingMap(req).set(String(id), pending)
  }
  // Counters are written to the row by SQL (views, replies), never to versions: Payload's save starts from the
  // latest version, so without this a publish or a restore would put back the counts of that version's time.
  const counters = row ? Object.fromEntries(ROW_OWNED.map((name) => [name, row[name]])) : {}
  // `_status` is always there (Payload fills every field left out from the latest version); normalizeStatus set it
  // from `status`, or from the row, when the save named neither.
  const status = data._status === 'published' ? 'published' : 'draft'
  return { ...data, ...counters, ...editedBy(req, data), _status: status, status }
}

/** The signed-in user who saves; a save without one (a job, a script) keeps the last name. */
const editedBy = (req: PayloadRequest, data: Record<string, unknown>) => ({ editedBy: req.user?.collection === 'users' ? req.user.id : data.editedBy })

/**
 * Wraps an after-change hook that derives what readers see: skipped on a
 * draft-only save, and given the row as it was (the published state) as
 * `previousDoc` otherwise.
 */
export function publishedOnly(hook: CollectionAfterChangeHook): CollectionAfterChangeHook {
  const wrapped: CollectionAfterChangeHook = (args) => {
    if (args.operation === 'update' && isDraftOnlySave(args.req, args.doc?.id)) return args.doc
    const before = args.operation === 'update' ? rowsBefore(args.req).get(String(args.doc?.id)) : undefined
    return hook(before ? { ...args, previousDoc: { ...before, id: args.doc.id } } : args)
  }
  return wrapped
}

function keepOf(req: PayloadRequest, id: Id): Keep | undefined {
  const keep = (req.context as Record<string, unknown>)[KEEP] as Map<string, Keep> | undefined
  return keep?.get(String(id)) ?? keep?.get('*')
}

/**
 * Last of the article's after-change hooks (the version of this save is
 * written): a save that names no status and found a pending draft makes that
 * draft the latest version again, then saves the same change into it as a
 * draft save, so the draft keeps its text and carries the change.
 */
export const keepPendingDraft: CollectionAfterChangeHook = async ({ doc, operation, req }) => {
  if (operation !== 'update') return doc
  const pending = pendingMap(req)
  const versionId = pending.get(String(doc.id))
  const keep = versionId === undefined ? undefined : keepOf(req, doc.id)
  if (versionId === undefined || !keep) return doc
  pending.delete(String(doc.id))
  const db = await transactionDb(req)
  await db.execute(sql`update _articles_v set latest = (id = ${Number(versionId)}) where parent_id = ${Number(doc.id)}`)
  await req.payload.update({
    collection: 'articles',
    id: doc.id,
    data: structuredClone(keep.change),
    draft: true,
    depth: 0,
    overrideAccess: keep.overrideAccess,
    req,
  })
  return doc
}
