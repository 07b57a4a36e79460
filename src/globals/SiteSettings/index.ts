import type { GlobalConfig } from 'payload'

import { can, fieldCan } from '../../access'
import { languageField } from '../../fields/language'

export const SiteSettings: GlobalConfig = {
  slug: 'site-settings',
  label: 'Site settings',
  admin: { group: 'Site' },
  access: { read: () => true, update: can('settings.manage') },
  fields: [
    { name: 'siteName', type: 'text', required: true, defaultValue: 'Inkwell', maxLength: 80 },
    { name: 'tagline', type: 'text', defaultValue: 'Writing worth reading.', maxLength: 160 },
    {
      type: 'group',
      name: 'meta',
      label: 'Default meta',
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
      admin: { description: 'The role given to the third and later users who register. Empty means reader.' },
      access: { update: fieldCan('roles.manage') },
    },
    {
      name: 'defaultEditorFormat',
      type: 'select',
      defaultValue: 'markdown',
      options: [
        { label: 'Markdown', value: 'markdown' },
        { label: 'HTML (rich text)', value: 'html' },
      ],
    },
    languageField({
      name: 'defaultLanguage',
      defaultValue: 'en',
      admin: { description: 'The language of pages, and of new articles unless their author chooses another (a tag such as en or zh-CN).' },
    }),
    { name: 'articlesPerPage', type: 'number', defaultValue: 10, min: 1, max: 100 },
  ],
}
