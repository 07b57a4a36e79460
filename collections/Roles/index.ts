import { APIError, type CollectionConfig, type PayloadRequest } from 'payload'

import { publicReadManagedBy } from '../../src/access'
import { forgetRolePermissions } from '../../src/access/permissions'
import { DEFAULT_ROLES } from '../../src/access/catalog'
import { validationTranslator } from '../../src/lib/i18n/request'
import { bothLanguages, adminGroup, collectionLabels } from '../../src/lib/i18n/labels'

const BUILT_IN = new Set(DEFAULT_ROLES.map((r) => r.slug))

export const Roles: CollectionConfig = {
  slug: 'roles',
  labels: collectionLabels('admin.roles'),
  admin: { useAsTitle: 'label', defaultColumns: ['label', 'slug', 'permissions'], group: adminGroup('people') },
  // Role names are shown on public profiles; what a role can do is data anyone may read.
  access: publicReadManagedBy('roles.manage'),
  hooks: {
    // What a role holds is kept per process (src/access/permissions.ts): a change is announced.
    afterChange: [forgetRolePermissions],
    afterDelete: [forgetRolePermissions],
    beforeDelete: [
      async ({ id, req }) => {
        const role = await req.payload.findByID({ collection: 'roles', id, depth: 0, overrideAccess: true, req })
        if (role && BUILT_IN.has(role.slug)) {
          throw new APIError(validationTranslator(req)('error.role.builtIn', { slug: role.slug }), 400, undefined, true)
        }
      },
    ],
  },
  fields: [
    { name: 'label', type: 'text', required: true, maxLength: 80 },
    {
      name: 'slug',
      type: 'text',
      required: true,
      unique: true,
      index: true,
      maxLength: 64,
      validate: (v: unknown, { req }: { req: PayloadRequest }) => (typeof v === 'string' && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(v)) || validationTranslator(req)('validation.roleSlug'),
    },
    { name: 'description', type: 'textarea', maxLength: 500 },
    {
      name: 'permissions',
      type: 'relationship',
      relationTo: 'permissions',
      hasMany: true,
      admin: { description: bothLanguages('admin.field.roles.permissions') },
    },
  ],
}
