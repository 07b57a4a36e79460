import path from 'node:path'
import type { CollectionConfig } from 'payload'

import { anyone, can, fieldCan, ownsWithOr } from '../../src/access'
import { stampOwner } from '../../hooks/stampOwner'
import { limitUploadRate } from './hooks/limitUploadRate'
import { remoteFileErrorsAsBadRequest } from './hooks/remoteFileErrors'
import { storeSniffedType } from './hooks/storeSniffedType'
import { adminGroup, collectionLabels } from '../../src/lib/i18n/labels'

export type MediaOptions = { staticDir: string }

export function createMedia({ staticDir }: MediaOptions): CollectionConfig {
  return {
    slug: 'media',
    labels: collectionLabels('admin.media'),
    admin: { useAsTitle: 'filename', defaultColumns: ['filename', 'alt', 'owner', 'createdAt'], group: adminGroup('content') },
    access: {
      read: anyone,
      create: can('media.create'),
      update: ownsWithOr('media.create', 'media.update.any', 'owner'),
      delete: ownsWithOr('media.create', 'media.delete.any', 'owner'),
    },
    hooks: {
      beforeOperation: [limitUploadRate, storeSniffedType],
      beforeChange: [stampOwner('owner', 'media.update.any')],
      afterError: [remoteFileErrorsAsBadRequest],
    },
    upload: {
      staticDir: path.resolve(staticDir),
      // Raster images only: SVG can carry script.
      mimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
      imageSizes: [
        { name: 'thumbnail', width: 96, height: 96, position: 'centre' },
        { name: 'square', width: 320, height: 320, position: 'centre' },
        { name: 'card', width: 768, height: undefined },
      ],
      adminThumbnail: 'thumbnail',
      // Browsers must trust the stored Content-Type (set from the sniffed bytes), never guess.
      modifyResponseHeaders: ({ headers }) => {
        headers.set('X-Content-Type-Options', 'nosniff')
        return headers
      },
      focalPoint: true,
    },
    fields: [
      { name: 'alt', type: 'text', maxLength: 200 },
      {
        name: 'owner',
        type: 'relationship',
        relationTo: 'users',
        index: true,
        admin: { position: 'sidebar' },
        access: { update: fieldCan('media.update.any') },
      },
    ],
  }
}
