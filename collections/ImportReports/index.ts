import type { CollectionConfig } from 'payload'

import { can, nobody } from '../../src/access'
import { bothLanguages, adminGroup, collectionLabels, optionLabels } from '../../src/lib/i18n/labels'

const serverOwned = { create: () => false, update: () => false }

/**
 * What each import did (src/plugins/import): the file, the source, whether it
 * was a dry run, and its report (counts per kind, the reason of every skip and
 * failure, notes). Written by the importer only; read by whoever manages the
 * site's settings.
 */
export const ImportReports: CollectionConfig = {
  slug: 'import-reports',
  labels: collectionLabels('admin.importReports'),
  admin: {
    useAsTitle: 'file',
    group: adminGroup('settings'),
    defaultColumns: ['file', 'source', 'status', 'summary', 'createdAt'],
    description: bothLanguages('admin.importReports.description'),
  },
  access: { read: can('settings.manage'), create: nobody, update: nobody, delete: can('settings.manage') },
  defaultSort: '-createdAt',
  fields: [
    { name: 'file', type: 'text', required: true, access: serverOwned },
    {
      name: 'source',
      type: 'select',
      required: true,
      options: optionLabels('admin.option.importSource', ['wordpress', 'ghost', 'inkwell']),
      access: serverOwned,
    },
    {
      name: 'status',
      type: 'select',
      required: true,
      defaultValue: 'running',
      options: optionLabels('admin.option.importStatus', ['running', 'done', 'failed']),
      access: serverOwned,
    },
    { name: 'dryRun', type: 'checkbox', defaultValue: false, access: serverOwned },
    { name: 'summary', type: 'text', access: serverOwned },
    { name: 'report', type: 'json', access: serverOwned, admin: { readOnly: true } },
  ],
}
