/**
 * Signed unsubscribe links for follow e-mails: whoever holds the link may end
 * that one follow, without signing in (RFC 8058 one-click, and the site's
 * /unsubscribe page). The signature is an HMAC of the follow's id under the
 * instance's secret, so a link cannot be forged or pointed at another follow.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

import type { Payload } from 'payload'

import type { Article } from '../../payload-types'
import { notificationsOptionsOf } from './options'

function signature(payload: Payload, followId: number): Buffer {
  return createHmac('sha256', payload.secret).update(`unsubscribe:follow:${followId}`).digest()
}

export function unsubscribeToken(payload: Payload, followId: number): string {
  return `${followId}.${signature(payload, followId).toString('base64url')}`
}

/** The follow id a token was signed for, or null for a malformed or forged token. */
export function verifyUnsubscribeToken(payload: Payload, token: unknown): number | null {
  if (typeof token !== 'string' || token.length > 100) return null
  const [idPart, sigPart, extra] = token.split('.')
  if (extra !== undefined || !idPart || !sigPart || !/^\d{1,10}$/.test(idPart)) return null
  const id = Number(idPart)
  const expected = signature(payload, id)
  const given = Buffer.from(sigPart, 'base64url')
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null
}

/** The page a follow e-mail links to (it asks before unsubscribing: mail scanners open links). */
export function unsubscribePageUrl(payload: Payload, followId: number): string {
  return `${notificationsOptionsOf(payload).baseUrl}/unsubscribe?token=${unsubscribeToken(payload, followId)}`
}

/** The RFC 8058 address mail clients POST to, from their own "Unsubscribe" button. */
export function oneClickUnsubscribeUrl(payload: Payload, followId: number): string {
  return `${notificationsOptionsOf(payload).baseUrl}/api/follows/unsubscribe?token=${unsubscribeToken(payload, followId)}`
}

export type UnsubscribeLookup =
  | { status: 'invalid' }
  | { status: 'gone' }
  | { status: 'following'; followId: number; article: Pick<Article, 'id' | 'title' | 'slug'> | null }

/** What a token stands for: a forged one, a follow already ended, or a live follow (and its article). */
export async function lookUpUnsubscribe(payload: Payload, token: unknown): Promise<UnsubscribeLookup> {
  const followId = verifyUnsubscribeToken(payload, token)
  if (followId === null) return { status: 'invalid' }
  const follow = await payload.findByID({ collection: 'follows', id: followId, depth: 1, disableErrors: true, overrideAccess: true, populate: { articles: { title: true, slug: true } } })
  if (!follow) return { status: 'gone' }
  const article = follow.article && typeof follow.article === 'object' ? follow.article : null
  return { status: 'following', followId, article }
}

/** Ends the follow a token was signed for. Repeating it is harmless (it is already gone). */
export async function unsubscribeByToken(payload: Payload, token: unknown): Promise<'invalid' | 'done'> {
  const followId = verifyUnsubscribeToken(payload, token)
  if (followId === null) return 'invalid'
  await payload.delete({ collection: 'follows', where: { id: { equals: followId } }, overrideAccess: true })
  return 'done'
}
