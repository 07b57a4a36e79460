import type { CollectionConfig } from 'payload'

import { can } from '../../src/access'
import { adminGroup, collectionLabels } from '../../src/lib/i18n/labels'

export const Tags: CollectionConfig = {
  slug: 'tags',
  labels: collectionLabels('admin.tags'),
  admin: { useAsTitle: 'name', defaultColumns: ['name', 'slug'], group: adminGroup('content') },
  access: {
    read: () => true,
    create: can('tags.create'),
    update: can('tags.manage'),
    delete: can('tags.manage'),
  },
  defaultSort: 'name',
  fields: [
    { name: 'name', type: 'text', required: true, unique: true, maxLength: 40 },
    // slug: added here by the slugs plugin (src/plugins/slugs), made from the name.
  ],
}
