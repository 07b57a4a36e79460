import type { CollectionConfig } from 'payload'

import { can, nobody } from '../../src/access'
import { bothLanguages, adminGroup, collectionLabels, optionLabels } from '../../src/lib/i18n/labels'

const serverOwned = { create: () => false, update: () => false }
/** An option the site owner chooses when uploading an export; fixed once the run is queued. */
const chosen = { update: () => false }

/** Who may import, and read and delete what imports did: the site owner (the permission `import.run`). */
export const IMPORT_PERMISSION = 'import.run'

/**
 * What each import did (src/plugins/import): the file, the source, whether it
 * was a dry run, and its report (counts per kind, the reason of every skip and
 * failure, notes). A report is also the run of an import uploaded in the
 * admin: its options, who asked, its state (queued → running → done or
 * failed) and its progress; the uploaded file waits in `import_uploads`
 * until the queued job has read it (src/plugins/import/uploadedImport.ts
 * requires it on create, stores it and queues the job). Read by the site
 * owner only.
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
  access: { read: can(IMPORT_PERMISSION), create: can(IMPORT_PERMISSION), update: nobody, delete: can(IMPORT_PERMISSION) },
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
      defaultValue: 'queued',
      options: optionLabels('admin.option.importStatus', ['queued', 'running', 'done', 'failed']),
      access: serverOwned,
    },
    { name: 'dryRun', type: 'checkbox', defaultValue: false, access: chosen },
    { name: 'siteOwner', type: 'text', maxLength: 200, access: chosen, admin: { description: bothLanguages('admin.field.importReports.siteOwner') } },
    { name: 'pagesCategory', type: 'text', maxLength: 100, access: chosen, admin: { description: bothLanguages('admin.field.importReports.pagesCategory') } },
    { name: 'siteUrl', type: 'text', maxLength: 500, access: chosen, admin: { description: bothLanguages('admin.field.importReports.siteUrl') } },
    { name: 'skipMedia', type: 'checkbox', defaultValue: false, access: chosen },
    { name: 'fileSize', type: 'number', access: serverOwned, admin: { readOnly: true } },
    { name: 'requestedBy', type: 'relationship', relationTo: 'users', index: true, access: serverOwned, admin: { readOnly: true, position: 'sidebar' } },
    { name: 'progressDone', type: 'number', defaultValue: 0, access: serverOwned, admin: { readOnly: true } },
    { name: 'progressTotal', type: 'number', defaultValue: 0, access: serverOwned, admin: { readOnly: true } },
    { name: 'summary', type: 'text', access: serverOwned },
    { name: 'error', type: 'text', access: serverOwned, admin: { readOnly: true } },
    { name: 'report', type: 'json', access: serverOwned, admin: { readOnly: true } },
  ],
}
