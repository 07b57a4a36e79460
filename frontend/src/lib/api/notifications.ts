/** Notifications, as the signed-in visitor, and the e-mails' unsubscribe links. */
import type { User } from '../../../../src/payload-types'
import { lookUpUnsubscribe as lookUpUnsubscribeOn, unsubscribeByToken as unsubscribeOn } from '../../../../src/plugins/notifications/unsubscribe'
import { asVisitor, payload, type Page } from './payload'

export const unsubscribeLookup = (token: unknown) => lookUpUnsubscribeOn(payload(), token)
export const unsubscribe = (token: unknown) => unsubscribeOn(payload(), token)

export type NotificationItem = {
  id: number
  kind: string
  createdAt: string
  readAt?: string | null
  article?: { id: number; title: string; slug?: string | null } | number | null
  reply?: { id: number; html?: string | null } | number | null
  actor?: { id: number; name: string } | number | null
}

export async function listMyNotifications(me: User, page = 1): Promise<Page<NotificationItem>> {
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
  if (ids.length === 0) return
  await payload().update({ collection: 'notifications', where: { id: { in: ids } }, data: { readAt: new Date().toISOString() }, ...asVisitor(me) })
}
