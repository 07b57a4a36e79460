import type { GlobalConfig } from 'payload'

import { can, fieldCan } from '../../access'
import { languageField } from '../../fields/language'
import { bothLanguages, adminGroup, optionLabels } from '../../lib/i18n/labels'

export const SiteSettings: GlobalConfig = {
  slug: 'site-settings',
  label: bothLanguages('admin.siteSettings.label'),
  admin: { group: adminGroup('site') },
  access: { read: () => true, update: can('settings.manage') },
  fields: [
    { name: 'siteName', type: 'text', required: true, defaultValue: 'Inkwell', maxLength: 80 },
    { name: 'tagline', type: 'text', defaultValue: 'Writing worth reading.', maxLength: 160 },
    {
      type: 'group',
      name: 'meta',
      label: bothLanguages('admin.field.siteSettings.meta.label'),
      fields: [
        { name: 'title', type: 'text', maxLength: 70 },
        { name: 'description', type: 'textarea', maxLength: 300 },
        { name: 'keywords', type: 'text', maxLength: 300 },
      ],
    },
    {
      name: 'defaultRole',
      type: 'relationship',
      relationTo: 'roles',
      admin: { description: bothLanguages('admin.field.siteSettings.defaultRole') },
      access: { update: fieldCan('roles.manage') },
    },
    {
      name: 'defaultEditorFormat',
      type: 'select',
      defaultValue: 'markdown',
      options: optionLabels('admin.option.format', ['markdown', 'html']),
    },
    languageField({
      name: 'defaultLanguage',
      defaultValue: 'en',
      admin: { description: bothLanguages('admin.field.siteSettings.defaultLanguage') },
    }),
    { name: 'articlesPerPage', type: 'number', defaultValue: 10, min: 1, max: 100 },
  ],
}
