import type { CollectionConfig, PayloadRequest } from 'payload'

import { publicReadManagedBy } from '../../src/access'
import { forgetRolePermissions } from '../../src/access/permissions'
import { validationTranslator } from '../../src/lib/i18n/request'
import { adminGroup, collectionLabels } from '../../src/lib/i18n/labels'

export const Permissions: CollectionConfig = {
  slug: 'permissions',
  labels: collectionLabels('admin.permissions'),
  admin: { useAsTitle: 'label', defaultColumns: ['label', 'slug', 'group'], group: adminGroup('people') },
  access: publicReadManagedBy('roles.manage'),
  // What a role holds is kept per process (src/access/permissions.ts): a change is announced.
  hooks: { afterChange: [forgetRolePermissions], afterDelete: [forgetRolePermissions] },
  fields: [
    { name: 'label', type: 'text', required: true, maxLength: 120 },
    {
      name: 'slug',
      type: 'text',
      required: true,
      unique: true,
      index: true,
      maxLength: 64,
      validate: (v: unknown, { req }: { req: PayloadRequest }) => (typeof v === 'string' && /^[a-z0-9]+([.-][a-z0-9]+)*$/.test(v)) || validationTranslator(req)('validation.permissionSlug'),
    },
    { name: 'group', type: 'text', index: true, maxLength: 40 },
  ],
}
