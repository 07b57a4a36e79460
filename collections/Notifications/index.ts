import type { CollectionConfig } from 'payload'

import { ownsOr } from '../../src/access'

/** In-site notifications are written by jobs (overrideAccess), read and marked read by their recipient. */
export const Notifications: CollectionConfig = {
  slug: 'notifications',
  admin: { defaultColumns: ['recipient', 'kind', 'article', 'actor', 'readAt', 'createdAt'], group: 'People' },
  access: {
    read: ownsOr('notifications.manage', 'recipient'),
    create: () => false,
    update: ownsOr('notifications.manage', 'recipient'),
    delete: ownsOr('notifications.manage', 'recipient'),
  },
  defaultSort: '-createdAt',
  fields: [
    { name: 'recipient', type: 'relationship', relationTo: 'users', required: true, index: true, access: { update: () => false } },
    {
      name: 'kind',
      type: 'select',
      required: true,
      defaultValue: 'reply',
      options: [{ label: 'New reply', value: 'reply' }],
      access: { update: () => false },
    },
    { name: 'article', type: 'relationship', relationTo: 'articles', index: true, access: { update: () => false } },
    { name: 'reply', type: 'relationship', relationTo: 'replies', index: true, access: { update: () => false } },
    { name: 'actor', type: 'relationship', relationTo: 'users', access: { update: () => false } },
    { name: 'readAt', type: 'date', index: true },
  ],
  indexes: [{ fields: ['recipient', 'createdAt'] }],
}
