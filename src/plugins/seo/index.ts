import type { Plugin } from 'payload'

import { seoPlugin } from '@payloadcms/plugin-seo'
import { bothLanguages } from '../../lib/i18n/labels'

/** Meta title, description, image and keywords on articles, falling back to site settings. */
export const articleSeoPlugin = (options: { siteName: string }): Plugin =>
  seoPlugin({
    collections: ['articles'],
    uploadsCollection: 'media',
    tabbedUI: false,
    generateTitle: ({ doc }) => `${(doc as { title?: string }).title ?? ''} · ${options.siteName}`,
    generateDescription: ({ doc }) => (doc as { excerpt?: string }).excerpt ?? '',
    fields: ({ defaultFields }) => [
      ...defaultFields,
      {
        name: 'keywords',
        type: 'text',
        maxLength: 300,
        admin: { description: bothLanguages('admin.field.articles.keywords') },
      },
    ],
  })
