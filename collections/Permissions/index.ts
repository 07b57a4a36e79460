import type { CollectionConfig } from 'payload'

import { publicReadManagedBy } from '../../src/access'

export const Permissions: CollectionConfig = {
  slug: 'permissions',
  admin: { useAsTitle: 'label', defaultColumns: ['label', 'slug', 'group'], group: 'People' },
  access: publicReadManagedBy('roles.manage'),
  fields: [
    { name: 'label', type: 'text', required: true, maxLength: 120 },
    {
      name: 'slug',
      type: 'text',
      required: true,
      unique: true,
      index: true,
      maxLength: 64,
      validate: (v: unknown) => (typeof v === 'string' && /^[a-z0-9]+([.-][a-z0-9]+)*$/.test(v)) || 'Use dotted lowercase words, like articles.delete.any.',
    },
    { name: 'group', type: 'text', index: true, maxLength: 40 },
  ],
}
