import type { CollectionConfig } from 'payload'

import { can } from '../../src/access'

export const Tags: CollectionConfig = {
  slug: 'tags',
  admin: { useAsTitle: 'name', defaultColumns: ['name', 'slug'], group: 'Content' },
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
