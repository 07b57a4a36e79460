/**
 * The moderation rules on the Replies collection, where every path (REST,
 * GraphQL, the Local API, the reader site's forms) obeys them:
 * - `decideOnCreate` (beforeChange): a new reply by a signed-in writer is
 *   scored (with Akismet's opinion when it is configured: akismet.ts) and
 *   given its state by the owner's rules; the application's own writes (no
 *   user: seeds, imports) are published.
 * - `onUpdate` (beforeChange): a moderator's change of state teaches the
 *   classifier (approve = ham, spam = spam; changing one's mind takes the
 *   lesson back, and Akismet is told in a job); a writer's edit is scored again and can only lose
 *   publication, never gain it. The state itself is written by moderators
 *   only (the field's access drops anyone else's value).
 * - `recordStateChange` (afterChange): the log of who changed what, when.
 * - `visibleReplies`: readers see published replies, and their own held ones.
 */
import { createHash } from 'node:crypto'

import type { Access, CollectionAfterChangeHook, CollectionBeforeChangeHook, PayloadRequest, Where } from 'payload'
import { ValidationError } from 'payload'

import { ANSWERED_REPLY } from '../../../collections/Replies/hooks/attachToTopLevel'
import { enqueue } from '../../../jobs/queue'
import { hasPermission, permissionsOf } from '../../access'
import { transactionDb } from '../../lib/pool'
import { sql } from '@payloadcms/db-postgres'
import { AKISMET_REPORT_JOB, askAkismet, permalinkOf, visitorOf, type Akismet, type AkismetContext, type AkismetVerdict } from './akismet'
import { validationTranslator } from '../../lib/i18n/request'
import { decide, type Rules, type ReplyState } from './rules'
import { rulesOf } from './settings'
import { scoreText } from './score'
import { normalizedText, type Facts } from './signals'
import { learnReply, modelOf } from './store'
import { tokenize } from './tokenize'
import { publicReplySql } from '../../../collections/Replies/access'

export const MODERATE = 'replies.moderate'

export const fingerprintOf = (text: string): string => createHash('sha256').update(normalizedText(text)).digest('base64url').slice(0, 22)

type WriterFacts = Facts & { blocked: boolean; publishedReplies: number }

async function writerFacts(req: PayloadRequest, userId: number, fingerprint: string): Promise<WriterFacts> {
  // In the request's transaction: a second pooled connection per concurrent reply could starve the pool.
  const db = await transactionDb(req)
  const result = (await db.execute(sql`
    select extract(epoch from now() - u.created_at) / 60 as age, u.moderation_blocked as blocked, u.registration_score as registration,
           (select count(*) from (select 1 from replies r where r.author_id = u.id and ${sql.raw(publicReplySql('r'))} limit 101) p)::int as published, -- the rule counts to 100 at most
           (select count(*) from replies r where r.author_id = u.id and r.created_at > now() - interval '10 minutes')::int as recent,
           (select count(distinct r.author_id) from replies r
             where r.moderation_fingerprint = ${fingerprint} and r.author_id <> u.id and r.created_at > now() - interval '7 days')::int as same
      from users u where u.id = ${userId}`)) as { rows: { age: number; blocked: boolean | null; registration: string | null; published: number; recent: number; same: number }[] }
  const row = result.rows[0]
  if (!row) return { blocked: false, publishedReplies: 0 }
  return {
    accountAgeMinutes: Number(row.age),
    blocked: Boolean(row.blocked),
    publishedReplies: row.published,
    recentReplies: row.recent,
    sameTextElsewhere: row.same,
    registrationScore: row.registration === null ? undefined : Number(row.registration),
  }
}

async function isTrusted(req: PayloadRequest, rules: Rules): Promise<boolean> {
  if (await hasPermission(req, MODERATE)) return true
  const { roles } = await permissionsOf(req)
  return rules.trustedRoles.some((slug) => roles.has(slug))
}

/** Akismet's opinion of a reply; undefined when it is off, or there is no visitor to describe. */
async function secondOpinion(req: PayloadRequest, akismet: Akismet | undefined, visitor: AkismetContext | undefined, text: string, article: unknown): Promise<AkismetVerdict | undefined> {
  if (!akismet || !visitor) return undefined
  const user = req.user as { name?: string | null; email?: string | null }
  return askAkismet(akismet, { ...visitor, type: 'comment', content: text, name: user.name ?? undefined, email: user.email ?? undefined, permalink: permalinkOf(akismet.blog, article) }, req.payload.logger)
}

/** The state the rules give this text from this writer, and the score and reasons; throws for a blocked word. */
async function judge(req: PayloadRequest, text: string, fingerprint: string, akismet: Akismet | undefined, article: unknown) {
  const userId = req.user!.id as number
  const rules = await rulesOf(req)
  // Trusted writers are published whatever the score: their text is not sent to Akismet.
  const trusted = await isTrusted(req, rules)
  const visitor = trusted ? undefined : visitorOf(req)
  const [facts, model, verdict] = await Promise.all([writerFacts(req, userId, fingerprint), modelOf(req), secondOpinion(req, akismet, visitor, text, article)])
  const score = scoreText(model, text, { ...facts, akismet: verdict })
  const decision = decide(rules, text, { trusted, blocked: facts.blocked, publishedReplies: facts.publishedReplies }, score)
  if ('refused' in decision) {
    throw new ValidationError({ collection: 'replies', errors: [{ path: 'body', message: validationTranslator(req)('error.moderation.blockedWord', { word: decision.refused }) }] })
  }
  // Kept on the reply only when Akismet saw it, so a moderator's decision can be reported with the same facts.
  return { state: decision.state, score: score.score, reasons: decision.reasons, akismetContext: verdict ? visitor : undefined }
}

export const decideOnCreate =
  (akismet: Akismet | undefined): CollectionBeforeChangeHook =>
  async ({ data, operation, req, context }) => {
    if (operation !== 'create') return data
    const text = typeof data.body === 'string' ? data.body : ''
    const fingerprint = fingerprintOf(text)
    const answered = req.context[ANSWERED_REPLY]
    const base = { ...data, moderationFingerprint: fingerprint, answeredReply: typeof answered === 'number' ? answered : null }
    if (!req.user || req.user.collection !== 'users' || context?.silent) {
      // The application's own writes: published, unless it says otherwise (only overrideAccess can).
      const status = typeof data.status === 'string' ? data.status : 'published'
      return { ...base, status, firstPublishedAt: status === 'published' ? new Date().toISOString() : null }
    }
    const { state, score, reasons, akismetContext } = await judge(req, text, fingerprint, akismet, data.article)
    return {
      ...base,
      status: state,
      spamScore: score,
      moderationReasons: reasons,
      akismetContext: akismetContext ?? null,
      firstPublishedAt: state === 'published' ? new Date().toISOString() : null,
    }
  }

type Stored = { status?: ReplyState | null; body?: string; firstPublishedAt?: string | null; trainedAs?: 'spam' | 'ham' | null; akismetContext?: AkismetContext | null }

export const onUpdate =
  (akismet: Akismet | undefined): CollectionBeforeChangeHook =>
  async ({ data, operation, originalDoc, req }) => {
    if (operation !== 'update' || !originalDoc) return data
    const before = originalDoc as Stored
    const from: ReplyState = before.status ?? 'published'
    let to: ReplyState = (data.status as ReplyState | undefined) ?? from
    const next: Record<string, unknown> = { ...data }
    const moderator = Boolean(req.user) && (await hasPermission(req, MODERATE))

    // A writer's edit is judged again: a reply published clean cannot be edited into spam.
    if (!moderator && req.user && typeof data.body === 'string' && data.body !== before.body) {
      const fingerprint = fingerprintOf(data.body)
      const judged = await judge(req, data.body, fingerprint, akismet, originalDoc.article)
      next.moderationFingerprint = fingerprint
      next.spamScore = judged.score
      next.moderationReasons = judged.reasons
      if (from === 'published' && judged.state !== 'published' && !judged.reasons.includes('first reply')) {
        to = judged.state === 'spam' ? 'spam' : 'held'
        next.status = to
      }
    }

    if (to === 'published' && !before.firstPublishedAt) next.firstPublishedAt = new Date().toISOString()

    // A moderator's decision teaches the classifier, once per reply; a changed mind takes the lesson back.
    const label = moderator && to !== from ? (to === 'published' ? 'ham' : to === 'spam' ? 'spam' : undefined) : undefined
    if (label && label !== before.trainedAs) {
      const tokens = tokenize(String(next.body ?? before.body ?? ''))
      if (before.trainedAs) await learnReply(req, tokens, before.trainedAs, -1)
      await learnReply(req, tokens, label, 1)
      next.trainedAs = label
      // Akismet learns from the same decision, in a job: after the commit, off this request, retried if it is down.
      if (akismet && before.akismetContext) await enqueue(req, AKISMET_REPORT_JOB, { replyId: originalDoc.id as number, as: label }, { key: `${AKISMET_REPORT_JOB}:${originalDoc.id}:${label}` })
    }
    return next
  }

export const recordStateChange: CollectionAfterChangeHook = async ({ doc, previousDoc, operation, req }) => {
  const to = (doc.status ?? 'published') as ReplyState
  const from = operation === 'create' ? null : ((previousDoc?.status ?? 'published') as ReplyState)
  if (from === to || (operation === 'create' && to === 'published')) return doc
  await req.payload.create({
    collection: 'moderation-events',
    data: { reply: doc.id, actor: operation === 'create' ? null : (req.user?.id ?? null), from, to, reasons: operation === 'create' ? doc.moderationReasons : null },
    overrideAccess: true,
    req,
  })
  return doc
}

/** Moderators read every reply; everyone else the published ones, and their own that wait (held or spam, both shown to them as awaiting). */
export const visibleReplies =
  (read: Access): Access =>
  async (args) => {
    const base = await read(args)
    if (base === false) return false
    const { req } = args
    if (req.user && (await hasPermission(req, MODERATE))) return base
    const published: Where = { status: { equals: 'published' } }
    const mine: Where | undefined =
      req.user?.collection === 'users' ? { and: [{ author: { equals: req.user.id } }, { status: { in: ['held', 'spam'] } }] } : undefined
    const visible: Where = mine ? { or: [published, mine] } : published
    return base === true ? visible : { and: [base, visible] }
  }
