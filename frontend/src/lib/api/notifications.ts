/** Notifications, as the signed-in visitor, and the e-mails' unsubscribe links. */
import type { User } from '../../../../src/payload-types'
import { lookUpUnsubscribe as lookUpUnsubscribeOn, unsubscribeByToken as unsubscribeOn, type UnsubscribeLookup } from '../../../../src/plugins/notifications/unsubscribe'
import { asVisitor, composed, payload, type Page } from './payload'

// Without the notifications plugin no mail carries a link: every token is unknown.
export const unsubscribeLookup = async (token: unknown): Promise<UnsubscribeLookup> => (composed('notifications') ? lookUpUnsubscribeOn(payload(), token) : { status: 'invalid' })
export const unsubscribe = async (token: unknown): Promise<'invalid' | 'done'> => (composed('notifications') ? unsubscribeOn(payload(), token) : 'invalid')

export type NotificationItem = {
  id: number
  kind: string
  createdAt: string
  readAt?: string | null
  article?: { id: number; title: string; slug?: string | null } | number | null
  reply?: { id: number; html?: string | null } | number | null
  actor?: { id: number; name: string } | number | null
}

const NONE: Page<NotificationItem> = { docs: [], totalDocs: 0, totalPages: 0, page: 1, limit: 20, hasNextPage: false, hasPrevPage: false }

/** The visitor's notifications, newest first; none without the notifications plugin. */
export async function listMyNotifications(me: User, page = 1): Promise<Page<NotificationItem>> {
  if (!composed('notifications')) return NONE
  return (await payload().find({
    collection: 'notifications',
    where: { recipient: { equals: me.id } },
    sort: '-createdAt',
    page,
    limit: 20,
    depth: 1,
    populate: { articles: { title: true, slug: true }, replies: { html: true }, users: { name: true } },
    ...asVisitor(me),
  })) as unknown as Page<NotificationItem>
}

/** Marks the given notifications read (one bulk update, limited by access to the visitor's own). */
export async function markNotificationsRead(me: User, ids: number[]): Promise<void> {
  if (ids.length === 0 || !composed('notifications')) return
  await payload().update({ collection: 'notifications', where: { id: { in: ids } }, data: { readAt: new Date().toISOString() }, ...asVisitor(me) })
}
