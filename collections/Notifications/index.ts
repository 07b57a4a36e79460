import type { CollectionConfig } from 'payload'

import { ownsOr } from '../../src/access'
import { countUnreadAfterChange, countUnreadAfterDelete } from './hooks/countUnread'
import { bothLanguages, adminGroup, collectionLabels, optionLabels } from '../../src/lib/i18n/labels'

/** In-site notifications are written by jobs (overrideAccess), read and marked read by their recipient. */
export const Notifications: CollectionConfig = {
  slug: 'notifications',
  labels: collectionLabels('admin.notifications'),
  admin: { useAsTitle: 'kind', defaultColumns: ['recipient', 'kind', 'article', 'actor', 'readAt', 'createdAt'], group: adminGroup('people') },
  access: {
    read: ownsOr('notifications.manage', 'recipient'),
    create: () => false,
    update: ownsOr('notifications.manage', 'recipient'),
    delete: ownsOr('notifications.manage', 'recipient'),
  },
  defaultSort: '-createdAt',
  hooks: { afterChange: [countUnreadAfterChange], afterDelete: [countUnreadAfterDelete] },
  fields: [
    { name: 'recipient', type: 'relationship', relationTo: 'users', required: true, index: true, access: { update: () => false } },
    {
      name: 'kind',
      type: 'select',
      required: true,
      defaultValue: 'reply',
      options: optionLabels('admin.option.notificationKind', ['reply', 'answer', 'followed']),
      access: { update: () => false },
    },
    { name: 'article', type: 'relationship', relationTo: 'articles', index: true, access: { update: () => false } },
    { name: 'reply', type: 'relationship', relationTo: 'replies', index: true, access: { update: () => false } },
    { name: 'actor', type: 'relationship', relationTo: 'users', access: { update: () => false } },
    { name: 'readAt', type: 'date', index: true },
    {
      name: 'mailedAt',
      type: 'date',
      admin: { readOnly: true, description: bothLanguages('admin.field.notifications.mailedAt') },
      access: { create: () => false, update: () => false },
    },
  ],
  // One notification per reply and recipient: what makes a retried job harmless.
  indexes: [{ fields: ['recipient', 'createdAt'] }, { fields: ['reply', 'recipient'], unique: true }],
}
