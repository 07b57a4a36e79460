import type { CollectionConfig } from 'payload'

import { publicReadManagedBy } from '../../src/access'
import { adminGroup, collectionLabels } from '../../src/lib/i18n/labels'

export const Categories: CollectionConfig = {
  slug: 'categories',
  labels: collectionLabels('admin.categories'),
  admin: { useAsTitle: 'name', defaultColumns: ['name', 'slug', 'order'], group: adminGroup('content') },
  access: publicReadManagedBy('categories.manage'),
  defaultSort: 'order',
  fields: [
    { name: 'name', type: 'text', required: true, unique: true, maxLength: 60 },
    // slug: added here by the slugs plugin (src/plugins/slugs), made from the name.
    { name: 'description', type: 'textarea', maxLength: 500 },
    { name: 'order', type: 'number', defaultValue: 0, index: true, admin: { position: 'sidebar' } },
  ],
}
