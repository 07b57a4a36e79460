import type { CollectionConfig } from 'payload'

import { can, fieldCan, ownsWithOr } from '../../src/access'
import { languageField } from '../../src/fields/language'
import { stampOwner } from '../../hooks/stampOwner'
import { publishedOrOwn } from './access'
import { defaultFormat } from './defaultFormat'
import { chineseByContent, defaultLanguage } from './defaultLanguage'
import { articleEditor } from './editor'
import { cardEndpoint, cardForCrawlers } from './endpoints/card'
import { previewEndpoint, previewNeedsPost } from './endpoints/preview'
import { deleteReplies } from './hooks/deleteReplies'
import { renderBody } from './hooks/renderBody'
import { stampPublishedAt } from './hooks/stampPublishedAt'
import { bothLanguages, adminGroup, collectionLabels, optionLabels } from '../../src/lib/i18n/labels'

const systemOnly = { create: () => false, update: () => false }

export const Articles: CollectionConfig = {
  slug: 'articles',
  labels: collectionLabels('admin.articles'),
  admin: {
    useAsTitle: 'title',
    defaultColumns: ['title', 'author', 'category', 'status', 'publishedAt', 'viewCount'],
    group: adminGroup('content'),
  },
  access: {
    read: publishedOrOwn,
    create: can('articles.create'),
    // Their author edits and deletes an article only while their role still lets them write articles.
    update: ownsWithOr('articles.create', 'articles.update.any'),
    delete: ownsWithOr('articles.create', 'articles.delete.any'),
  },
  defaultSort: '-publishedAt',
  // One per list query (home, latest replies, category, author); see src/migrations/20261123_130000_list_indexes.ts.
  indexes: [
    { fields: ['status', 'publishedAt'] },
    { fields: ['status', 'lastReplyAt'] },
    { fields: ['category', 'status', 'publishedAt'] },
    { fields: ['author', 'status', 'publishedAt'] },
  ],
  endpoints: [previewEndpoint, previewNeedsPost, cardEndpoint, cardForCrawlers],
  hooks: {
    beforeChange: [stampOwner('author', 'articles.update.any'), stampPublishedAt, renderBody],
    beforeDelete: [deleteReplies],
  },
  fields: [
    { name: 'title', type: 'text', required: true, maxLength: 200 },
    // Added here by plugins: fullText (virtual) by src/plugins/search; slug, slugOrigin and formerSlugs,
    // made from the title, by src/plugins/slugs.
    {
      name: 'format',
      type: 'select',
      required: true,
      defaultValue: defaultFormat,
      options: optionLabels('admin.option.format', ['markdown', 'html']),
      admin: {
        position: 'sidebar',
        components: { Field: '/src/plugins/content/admin/FormatField#FormatField' },
      },
    },
    {
      name: 'markdown',
      label: bothLanguages('admin.field.articles.markdown.label'),
      type: 'textarea',
      maxLength: 500_000,
      admin: {
        condition: (data) => (data?.format ?? 'markdown') === 'markdown',
        components: { Field: '/src/plugins/content/admin/MarkdownEditor#MarkdownEditorField' },
      },
    },
    {
      name: 'content',
      label: bothLanguages('admin.field.articles.content.label'),
      type: 'richText',
      editor: articleEditor,
      admin: { condition: (data) => data?.format === 'html' },
    },
    {
      name: 'html',
      type: 'textarea',
      // Highlighted code makes HTML many times longer than its source (Payload's default limit is 40 000).
      maxLength: 10_000_000,
      admin: { hidden: true },
      access: systemOnly,
    },
    { name: 'excerpt', type: 'textarea', maxLength: 500, admin: { description: bothLanguages('admin.field.articles.excerpt') } },
    languageField({
      name: 'language',
      defaultValue: defaultLanguage,
      // A Chinese title and body make a new article zh-CN unless its author chose otherwise.
      hooks: { beforeValidate: [chineseByContent] },
      admin: { position: 'sidebar', description: bothLanguages('admin.field.articles.language') },
    }),
    { name: 'category', type: 'relationship', relationTo: 'categories', index: true, admin: { position: 'sidebar' } },
    { name: 'tags', type: 'relationship', relationTo: 'tags', hasMany: true, index: true, admin: { position: 'sidebar' } },
    {
      name: 'author',
      type: 'relationship',
      relationTo: 'users',
      index: true,
      admin: { position: 'sidebar' },
      access: { update: fieldCan('articles.update.any') },
    },
    {
      name: 'status',
      type: 'select',
      required: true,
      defaultValue: 'draft',
      index: true,
      options: optionLabels('admin.option.articleStatus', ['draft', 'published']),
      admin: { position: 'sidebar' },
    },
    { name: 'publishedAt', type: 'date', index: true, admin: { position: 'sidebar', date: { pickerAppearance: 'dayAndTime' } } },
    // Not indexed: it changes with every batch of views, and updates of unindexed columns stay in place (HOT).
    { name: 'viewCount', type: 'number', defaultValue: 0, min: 0, admin: { position: 'sidebar', readOnly: true }, access: systemOnly },
    { name: 'replyCount', type: 'number', defaultValue: 0, min: 0, admin: { position: 'sidebar', readOnly: true }, access: systemOnly },
    { name: 'lastReplyAt', type: 'date', index: true, admin: { position: 'sidebar', readOnly: true }, access: systemOnly },
  ],
}
