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
      // The image's description is the plugin's English (its labels are relabelled with every field's, src/plugins/languages).
      ...defaultFields.map((f) => ('name' in f && f.name === 'image' ? ({ ...f, admin: { ...f.admin, description: bothLanguages('admin.field.articles.metaImage') } } as typeof f) : f)),
      {
        name: 'keywords',
        type: 'text',
        maxLength: 300,
        admin: { description: bothLanguages('admin.field.articles.keywords') },
      },
    ],
  })
