import type { CollectionConfig, PayloadRequest } from 'payload'

import { publicReadManagedBy } from '../../src/access'
import { validationTranslator } from '../../src/lib/i18n/request'
import { adminGroup, collectionLabels } from '../../src/lib/i18n/labels'

export const Links: CollectionConfig = {
  slug: 'links',
  labels: collectionLabels('admin.links'),
  admin: { useAsTitle: 'title', defaultColumns: ['title', 'url', 'order'], group: adminGroup('site') },
  access: publicReadManagedBy('links.manage'),
  defaultSort: 'order',
  fields: [
    { name: 'title', type: 'text', required: true, maxLength: 80 },
    {
      name: 'url',
      type: 'text',
      required: true,
      maxLength: 500,
      validate: (value: unknown, { req }: { req: PayloadRequest }) => {
        const t = validationTranslator(req)
        try {
          const url = new URL(String(value))
          return ['http:', 'https:'].includes(url.protocol) || t('validation.linkProtocol')
        } catch {
          return t('validation.linkAddress')
        }
      },
    },
    { name: 'description', type: 'text', maxLength: 200 },
    { name: 'order', type: 'number', defaultValue: 0, index: true },
  ],
}
