import type { CollectionConfig } from 'payload'

import { can } from '../../src/access'
import { bothLanguages, adminGroup, collectionLabels, optionLabels } from '../../src/lib/i18n/labels'

const nobody = () => false

/**
 * The user switcher's log: every switch and every switch back, with who, whom
 * and when, and every write made while switched (`act`: the owner acting as
 * the user, the operation and the document). Written only by the switcher's endpoints; nobody edits or deletes
 * it through any API, and only holders of users.switch read it.
 */
export const UserSwitches: CollectionConfig = {
  slug: 'user-switches',
  labels: collectionLabels('admin.userSwitches'),
  admin: {
    group: adminGroup('people'),
    useAsTitle: 'action',
    defaultColumns: ['createdAt', 'actor', 'action', 'target', 'operation', 'subject'],
    description: bothLanguages('admin.userSwitches.description'),
  },
  defaultSort: '-createdAt',
  access: { read: can('users.switch'), create: nobody, update: nobody, delete: nobody },
  fields: [
    // Not required: the log outlives the accounts it names (a deleted user's rows keep the time and the action).
    { name: 'actor', label: bothLanguages('admin.field.userSwitches.actor.label'), type: 'relationship', relationTo: 'users', index: true },
    {
      name: 'action',
      type: 'select',
      required: true,
      options: optionLabels('admin.option.userSwitchAction', ['switch', 'back', 'act']),
    },
    { name: 'target', label: bothLanguages('admin.field.userSwitches.target.label'), type: 'relationship', relationTo: 'users', index: true },
    // For `act`: what the owner did while switched (create, update, delete) and to what ("articles 12", "global site-settings").
    { name: 'operation', type: 'text', maxLength: 20 },
    { name: 'subject', type: 'text', maxLength: 200 },
  ],
  timestamps: true,
}
