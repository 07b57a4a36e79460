/**
 * The moderation queue's data and actions, for the admin view, its nav badge
 * and the endpoint its forms post to (POST /api/moderation/replies). Actions
 * go through the Local API as the moderator (overrideAccess: false), so the
 * Replies rules — who may set a state, the log, the classifier's lessons,
 * notifications on first approval — apply exactly as on REST and GraphQL.
 */
import type { Payload, PayloadRequest, Where } from 'payload'
import { validationTranslator } from '../../lib/i18n/request'

import { hasPermission } from '../../access'
import { errorResponse } from '../../lib/errorResponse'
import { query } from '../../lib/pool'
import { relationId } from '../../lib/relationId'
import { MODERATE } from './hooks'
import type { ReplyState } from './rules'
import { publicReplySql } from '../../../collections/Replies/access'

export const MODERATION_QUEUE_PATH = '/moderation'
export const MODERATION_ACTION_PATH = '/moderation/replies'
export const QUEUE_PAGE_SIZE = 100

export type QueueFilter = 'held' | 'spam' | 'reported'
export const QUEUE_FILTERS: QueueFilter[] = ['held', 'spam', 'reported']

export type QueueItem = {
  id: number
  status: ReplyState
  body: string
  createdAt: string
  score: number | null
  reasons: string[]
  reports: number
  article: { id: number; title: string } | null
  writer: { id: number; name: string; blocked: boolean; history: Record<string, number> } | null
}

/** Replies waiting for a moderator: held ones, and published ones readers reported and nobody has looked at since. */
export async function waitingCount(payload: Payload): Promise<number> {
  const [row] = await query<{ n: number }>(
    payload,
    `select (select count(*) from replies where status = 'held')
          + (select count(distinct r.reply_id) from reply_reports r join replies p on p.id = r.reply_id
              where r.resolved_at is null and ${publicReplySql('p')}) as n`,
  )
  return Number(row?.n ?? 0)
}

export type QueuePage = {
  items: QueueItem[]
  counts: Record<QueueFilter, number>
  /** The page shown (1-based, within 1..pages), the pages there are, and the items in the filter. */
  page: number
  pages: number
  total: number
  pageSize: number
}

/** A page number from the address: a positive integer, 1 otherwise. */
export const pageFrom = (value: unknown): number => {
  const n = Number(value)
  return Number.isSafeInteger(n) && n >= 1 ? n : 1
}

/** Unresolved reports per reply, for the replies on this page. */
async function reportsOf(payload: Payload, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map()
  const rows = await query<{ reply_id: number; n: number }>(
    payload,
    'select reply_id, count(*)::int as n from reply_reports where resolved_at is null and reply_id = any($1::int[]) group by reply_id',
    [ids],
  )
  return new Map(rows.map((r) => [r.reply_id, r.n]))
}

/** The reported replies of one page, most recently reported first. */
async function reportedIds(payload: Payload, page: number, pageSize: number): Promise<number[]> {
  const rows = await query<{ reply_id: number }>(
    payload,
    'select reply_id from reply_reports where resolved_at is null group by reply_id order by max(created_at) desc, reply_id desc limit $1 offset $2',
    [pageSize, (page - 1) * pageSize],
  )
  return rows.map((r) => r.reply_id)
}

/** One page of a filter (a page past the last shows the last one), with every filter's count. */
export async function loadQueue(payload: Payload, filter: QueueFilter, wantedPage = 1, pageSize = QUEUE_PAGE_SIZE): Promise<QueuePage> {
  const [row] = await query<Record<QueueFilter, number>>(
    payload,
    `select (select count(*) from replies where status = 'held')::int as held,
            (select count(*) from replies where status = 'spam')::int as spam,
            (select count(distinct r.reply_id) from reply_reports r where r.resolved_at is null)::int as reported`,
  )
  const counts = row ?? { held: 0, spam: 0, reported: 0 }
  const total = counts[filter]
  const pages = Math.max(1, Math.ceil(total / pageSize))
  const page = Math.min(pageFrom(wantedPage), pages)
  const reported = filter === 'reported' ? await reportedIds(payload, page, pageSize) : []
  if (filter === 'reported' && reported.length === 0) return { items: [], counts, page, pages, total, pageSize }
  const where: Where = filter === 'reported' ? { id: { in: reported } } : { status: { equals: filter } }
  const { docs } = await payload.find({
    collection: 'replies',
    where,
    sort: '-createdAt',
    limit: pageSize,
    page: filter === 'reported' ? 1 : page,
    depth: 1,
    overrideAccess: true,
    populate: { articles: { title: true }, users: { name: true, moderationBlocked: true } } as never,
  })
  const reports = await reportsOf(payload, docs.map((d) => d.id))
  const writerIds = [...new Set(docs.map((d) => relationId(d.author)).filter((id): id is number => id !== undefined))]
  const history = await query<{ author_id: number; status: string; n: number }>(
    payload,
    'select author_id, status::text as status, count(*)::int as n from replies where author_id = any($1::int[]) group by author_id, status',
    [writerIds],
  )
  const historyOf = (id: number) => Object.fromEntries(history.filter((h) => h.author_id === id).map((h) => [h.status, h.n]))
  const items = docs.map((d): QueueItem => {
    const article = d.article && typeof d.article === 'object' ? { id: d.article.id, title: d.article.title } : null
    const author = d.author && typeof d.author === 'object' ? (d.author as { id: number; name?: string; moderationBlocked?: boolean | null }) : null
    return {
      id: d.id,
      status: (d.status ?? 'published') as ReplyState,
      body: d.body,
      createdAt: d.createdAt,
      score: typeof d.spamScore === 'number' ? d.spamScore : null,
      reasons: Array.isArray(d.moderationReasons) ? (d.moderationReasons as string[]) : [],
      reports: reports.get(d.id) ?? 0,
      article,
      writer: author ? { id: author.id, name: author.name ?? `#${author.id}`, blocked: Boolean(author.moderationBlocked), history: historyOf(author.id) } : null,
    }
  })
  return { items, counts, page, pages, total, pageSize }
}

const ACTIONS: Record<string, ReplyState> = { approve: 'published', spam: 'spam', trash: 'trash', hold: 'held' }

/** Values of a form field that may repeat (`ids=1&ids=2`), whether the body arrived as JSON or as a form. */
async function readForm(req: PayloadRequest): Promise<Record<string, string[]>> {
  const type = req.headers.get('content-type') ?? ''
  const out: Record<string, string[]> = {}
  const put = (k: string, v: unknown) => {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') (out[k] ??= []).push(String(v))
  }
  try {
    if (type.includes('application/json')) {
      const body = (await req.json!()) as Record<string, unknown>
      for (const [k, v] of Object.entries(body ?? {})) (Array.isArray(v) ? v : [v]).forEach((x) => put(k, x))
    } else if (type.includes('form')) {
      for (const [k, v] of (await req.formData!()).entries()) put(k.replace(/\[\]$/, ''), v)
    }
  } catch {
    // An unreadable body is a body without fields: the checks below name what is missing.
  }
  return out
}

/**
 * Approve, spam, trash or hold one or many replies; with `block`, marking
 * spam also sends the writers' future replies to spam. Reports of the
 * replies acted on are resolved.
 */
export async function handleModerationAction(req: PayloadRequest): Promise<Response> {
  if (!req.user || !(await hasPermission(req, MODERATE))) {
    return errorResponse(req.user ? 403 : 401, { message: validationTranslator(req)('error.moderation.permission') })
  }
  const form = await readForm(req)
  const action = form.action?.[0] ?? ''
  const state = ACTIONS[action]
  if (!state) return errorResponse(400, { fields: { action: validationTranslator(req)('error.moderation.action') } })
  const ids = [...new Set((form.ids ?? []).map(Number))]
  if (ids.length === 0 || ids.length > QUEUE_PAGE_SIZE || ids.some((id) => !Number.isInteger(id) || id <= 0)) {
    return errorResponse(400, { fields: { ids: validationTranslator(req)('error.moderation.ids', { max: QUEUE_PAGE_SIZE }) } })
  }
  const block = state === 'spam' && ['on', 'true', '1'].includes(form.block?.[0] ?? '')
  const { docs } = await req.payload.update({
    collection: 'replies',
    where: { id: { in: ids } },
    data: { status: state } as never,
    overrideAccess: false,
    user: req.user,
    depth: 0,
    req,
  })
  const done = docs.map((d) => d.id)
  if (block) {
    const writers = [...new Set(docs.map((d) => relationId(d.author)).filter((id): id is number => id !== undefined))]
    if (writers.length > 0) {
      await req.payload.update({ collection: 'users', where: { id: { in: writers } }, data: { moderationBlocked: true } as never, overrideAccess: false, user: req.user, depth: 0, req })
    }
  }
  if (done.length > 0) await query(req.payload, 'update reply_reports set resolved_at = now() where reply_id = any($1::int[]) and resolved_at is null', [done])
  const accept = req.headers.get('accept') ?? ''
  if (accept.includes('application/json')) return Response.json({ updated: done, blocked: block })
  const filter = form.filter?.[0] && QUEUE_FILTERS.includes(form.filter[0] as QueueFilter) ? form.filter[0] : undefined
  const page = pageFrom(form.page?.[0])
  // Back to the page the moderator was on (a page emptied by the action shows the last one there is).
  const back = filter ? `?filter=${filter}${page > 1 ? `&page=${page}` : ''}` : ''
  return new Response(null, { status: 303, headers: { location: `${req.payload.config.routes.admin}${MODERATION_QUEUE_PATH}${back}` } })
}
