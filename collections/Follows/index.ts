import type { CollectionConfig } from 'payload'

import { ownsOr, signedIn } from '../../src/access'
import { stampOwner } from '../../hooks/stampOwner'
import { publishedArticle } from '../Replies/access'
import { bothLanguages, adminGroup, collectionLabels } from '../../src/lib/i18n/labels'

/**
 * A reader following an article's replies by e-mail. Each follower sees and
 * removes only their own follows (an e-mail's signed unsubscribe link removes
 * one without signing in: src/plugins/notifications/unsubscribe.ts).
 */
export const Follows: CollectionConfig = {
  slug: 'follows',
  labels: collectionLabels('admin.follows'),
  admin: { useAsTitle: 'articleTitle', defaultColumns: ['article', 'follower', 'createdAt'], group: adminGroup('people'), description: bothLanguages('admin.follows.description') },
  access: {
    read: ownsOr('notifications.manage', 'follower'),
    create: signedIn,
    update: () => false,
    delete: ownsOr('notifications.manage', 'follower'),
  },
  defaultSort: '-createdAt',
  hooks: { beforeChange: [stampOwner('follower', 'notifications.manage')] },
  fields: [
    {
      name: 'article',
      type: 'relationship',
      relationTo: 'articles',
      required: true,
      index: true,
      validate: publishedArticle('validation.followArticle'),
    },
    // Stamped with the signed-in reader (stampOwner), hence not `required`: validation runs before the stamp.
    { name: 'follower', type: 'relationship', relationTo: 'users', index: true, access: { update: () => false } },
    // What the admin titles a follow by (no column: read through the relationship).
    { name: 'articleTitle', type: 'text', virtual: 'article.title', admin: { readOnly: true, hidden: true } },
  ],
  // One follow per article and reader: following twice changes nothing.
  indexes: [{ fields: ['article', 'follower'], unique: true }],
}
