/**
 * Akismet as an optional second opinion (issue 29). Moderation works with no
 * external service; when AKISMET_KEY is set, a new reply (and a registration
 * from the public form) is also sent to Akismet through the `akismet-api`
 * client, and its answer becomes one more signal in the score (signals.ts).
 * A moderator's decision is reported back (submit-ham / submit-spam) by the
 * `akismet-report` job, after the decision is committed and off the request.
 *
 * Akismet is never in the way of posting: each check has a time limit
 * (AKISMET_TIMEOUT_MS), and a check that fails or runs out of time counts as
 * "Akismet unavailable", leaving the local score to decide alone.
 */
import { AkismetClient } from 'akismet-api'
import type { Payload, PayloadRequest } from 'payload'

import { clientIp } from '../../lib/rateLimit'
import { withoutTrailingSlashes } from '../../lib/redirectPath'
import { relationId } from '../../lib/relationId'

export type AkismetOptions = {
  /** The API key; empty or missing: Akismet is off. */
  key?: string
  /** Another Akismet-compatible address (tests: a fake on loopback); missing: Akismet's own. */
  endpoint?: string
  /** How long one check may take before the reply is judged without it. */
  timeoutMs: number
  /** The site's address, Akismet's `blog`; permalinks are made from it too. */
  blog: string
}

export type Akismet = { client: AkismetClient; timeoutMs: number; blog: string }

/** What Akismet said about one text; `unavailable`: it did not answer in time, or answered with an error. */
export type AkismetVerdict = 'spam' | 'ham' | 'unavailable'

/** The writer's side of a request, kept on the reply so a later report describes it as the check did. */
export type AkismetContext = { ip: string; userAgent?: string; referrer?: string }

export type AkismetComment = AkismetContext & {
  type: 'comment' | 'signup'
  content?: string
  name?: string
  email?: string
  permalink?: string
}

/**
 * akismet-api addresses Akismet as `https://KEY.rest.akismet.com/1.1/`, the
 * key in the host name: a stand-in on a loopback address has no such name.
 * Akismet also takes the key as the `api_key` field on the plain address, so
 * an overridden endpoint is used that way: the client's request address and
 * its always-sent fields (both set in its constructor, not in its typings)
 * are replaced once here. The pinned version and the loopback tests keep
 * this honest.
 */
function pointAt(client: AkismetClient, endpoint: string, key: string): void {
  const internals = client as unknown as { endpoint: string; requestOpts: Record<string, string> }
  internals.endpoint = `${withoutTrailingSlashes(endpoint)}/1.1/`
  internals.requestOpts = { ...internals.requestOpts, api_key: key }
}

/** The client for these options, or undefined when no key is set (Akismet off). */
export function akismetFrom(options: AkismetOptions | undefined): Akismet | undefined {
  if (!options?.key) return undefined
  const client = new AkismetClient({ key: options.key, blog: options.blog, charset: 'UTF-8', userAgent: 'Inkwell | akismet-api/6.0.0' })
  if (options.endpoint) pointAt(client, options.endpoint, options.key)
  return { client, timeoutMs: options.timeoutMs, blog: options.blog }
}

/**
 * Settles within `ms`: the library sets no time limit of its own, so the
 * wait is bounded here. The request itself may still finish later; its
 * outcome is then dropped (and its error handled, never unhandled).
 */
function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}

function asFields(comment: AkismetComment) {
  return {
    user_ip: comment.ip,
    user_agent: comment.userAgent,
    referrer: comment.referrer,
    comment_type: comment.type,
    comment_content: comment.content,
    comment_author: comment.name,
    comment_author_email: comment.email,
    permalink: comment.permalink,
  }
}

/** Akismet's opinion of one comment; never throws, never takes longer than the time limit. */
export async function askAkismet(akismet: Akismet, comment: AkismetComment, log: Payload['logger']): Promise<AkismetVerdict> {
  try {
    const spam = await withinTime(Promise.resolve(akismet.client.checkSpam(asFields(comment))), akismet.timeoutMs)
    return spam ? 'spam' : 'ham'
  } catch (error) {
    log.warn(`Akismet unavailable, the local score decides alone: ${(error as Error).message}`)
    return 'unavailable'
  }
}

/** The visitor's address and browser, as Akismet wants them; none for the Local API (no visitor to describe). */
export function visitorOf(req: PayloadRequest): AkismetContext | undefined {
  const ip = clientIp(req)
  if (!ip || ip === 'unknown') return undefined
  return { ip, userAgent: req.headers.get('user-agent') ?? undefined, referrer: req.headers.get('referer') ?? undefined }
}

/** The reply's article as a reader reaches it (the id redirects to the slugged address). */
export const permalinkOf = (blog: string, article: unknown): string | undefined => {
  const id = relationId(article)
  return id === undefined ? undefined : `${blog}/articles/${id}`
}

// ---- reporting a moderator's decision back: the `akismet-report` job ----

export const AKISMET_REPORT_JOB = 'akismet-report'
export type AkismetReportData = { replyId: number; as: 'spam' | 'ham' }

type ReportedReply = { body?: string; article?: unknown; author?: unknown; akismetContext?: AkismetContext | null }

/**
 * Tells Akismet it was wrong or right about a reply, with the same facts the
 * check sent. A reply Akismet never saw (posted before the key was set, or
 * through the Local API without a visitor's address) is not reported.
 * Throws on failure: the queue retries.
 */
export function reportDecision(akismet: Akismet) {
  return async (payload: Payload, { replyId, as }: AkismetReportData): Promise<void> => {
    const reply = (await payload.findByID({ collection: 'replies', id: replyId, depth: 1, disableErrors: true, overrideAccess: true })) as ReportedReply | null
    const context = reply?.akismetContext
    if (!reply || !context?.ip) return
    const author = reply.author && typeof reply.author === 'object' ? (reply.author as { name?: string; email?: string }) : {}
    const fields = asFields({ ...context, type: 'comment', content: reply.body, name: author.name, email: author.email, permalink: permalinkOf(akismet.blog, reply.article) })
    const submit = as === 'spam' ? akismet.client.submitSpam(fields) : akismet.client.submitHam(fields)
    await withinTime(Promise.resolve(submit), akismet.timeoutMs * 4)
  }
}
