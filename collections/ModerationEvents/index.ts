import type { CollectionConfig } from 'payload'

import { can } from '../../src/access'
import { serverWritten } from '../../src/fields/serverOwned'
import { bothLanguages, adminGroup, collectionLabels, optionLabels } from '../../src/lib/i18n/labels'

const STATES = optionLabels('admin.option.replyStatus', ['published', 'held', 'spam', 'trash'])

/**
 * Every change of a reply's state: which reply, who (empty: the rules, on
 * posting), when (createdAt), from → to. Written by the moderation plugin's
 * hook only; read by moderators; never edited.
 */
export const ModerationEvents: CollectionConfig = {
  slug: 'moderation-events',
  labels: collectionLabels('admin.moderationEvents'),
  admin: { useAsTitle: 'to', defaultColumns: ['reply', 'from', 'to', 'actor', 'createdAt'], group: adminGroup('content') },
  access: { read: can('replies.moderate'), create: () => false, update: () => false, delete: () => false },
  defaultSort: '-createdAt',
  fields: [
    { name: 'reply', type: 'relationship', relationTo: 'replies', required: true, index: true, access: serverWritten },
    { name: 'actor', type: 'relationship', relationTo: 'users', access: serverWritten, admin: { description: bothLanguages('admin.field.moderationEvents.actor') } },
    { name: 'from', type: 'select', options: STATES, access: serverWritten },
    { name: 'to', type: 'select', options: STATES, required: true, access: serverWritten },
    { name: 'reasons', type: 'json', access: serverWritten },
  ],
}
