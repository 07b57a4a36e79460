import type { CollectionConfig, PayloadRequest } from 'payload'

import { can, fieldCan, ownsWithOr } from '../../src/access'
import { stampOwner } from '../../hooks/stampOwner'
import { validationTranslator } from '../../src/lib/i18n/request'
import { answerableParent, ownRecentReplies, replyableArticle, repliesOnReadableArticles } from './access'
import { attachToTopLevel } from './hooks/attachToTopLevel'
import { limitReplyFlood } from './hooks/limitReplyFlood'
import { renderReply } from './hooks/renderReply'
import { syncStatsAfterCreate, syncStatsAfterDelete } from './hooks/syncArticleReplyStats'
import { bothLanguages, adminGroup, collectionLabels } from '../../src/lib/i18n/labels'

export const REPLY_MAX_LENGTH = 5000

export const Replies: CollectionConfig = {
  slug: 'replies',
  labels: collectionLabels('admin.replies'),
  admin: {
    useAsTitle: 'body',
    // Moderation reads the newest first (defaultSort below), with where each reply was left and by whom.
    defaultColumns: ['body', 'article', 'author', 'createdAt'],
    listSearchableFields: ['body'],
    group: adminGroup('content'),
  },
  access: {
    read: repliesOnReadableArticles,
    create: can('replies.create'),
    // Their writer edits a reply for a short while and deletes it any time, while their role still lets them reply.
    update: ownRecentReplies,
    delete: ownsWithOr('replies.create', 'replies.delete.any'),
  },
  // Newest first, in the admin's list and for API reads that name no order (the site's threads ask for oldest first).
  defaultSort: '-createdAt',
  hooks: {
    beforeValidate: [limitReplyFlood],
    beforeChange: [stampOwner('author', 'replies.update.any'), attachToTopLevel, renderReply],
    afterChange: [syncStatsAfterCreate],
    afterDelete: [syncStatsAfterDelete],
  },
  fields: [
    {
      name: 'article',
      type: 'relationship',
      relationTo: 'articles',
      required: true,
      index: true,
      validate: replyableArticle,
      access: { update: fieldCan('replies.update.any') },
    },
    {
      name: 'author',
      type: 'relationship',
      relationTo: 'users',
      index: true,
      access: { update: fieldCan('replies.update.any') },
    },
    {
      // The reply this one answers (always a top-level reply: threads are one level deep).
      name: 'parent',
      type: 'relationship',
      relationTo: 'replies',
      index: true,
      validate: answerableParent,
      access: { update: () => false },
      admin: { description: bothLanguages('admin.field.replies.parent') },
    },
    {
      name: 'body',
      type: 'textarea',
      required: true,
      maxLength: REPLY_MAX_LENGTH,
      // A custom validate replaces the built-in one, so the length rule lives here too.
      // Its messages are in the request's language (validationTranslator).
      validate: (value: unknown, { req }: { req: PayloadRequest }) => {
        const t = validationTranslator(req)
        // Invisible format characters (zero-width spaces, joiners, bidi marks) alone are empty too.
        if (typeof value !== 'string' || value.replace(/[\p{Cf}\s]/gu, '').length === 0) return t('validation.replyEmpty')
        if (value.length > REPLY_MAX_LENGTH) return t('validation.replyTooLong', { max: REPLY_MAX_LENGTH })
        return true
      },
    },
    // Rendered HTML (highlighted code) is many times longer than the body; Payload's default limit is 40 000.
    { name: 'html', type: 'textarea', maxLength: 1_000_000, admin: { hidden: true }, access: { create: () => false, update: () => false } },
  ],
  // An article's replies in order, and a user's latest replies (profile page).
  indexes: [{ fields: ['article', 'createdAt'] }, { fields: ['author', 'createdAt'] }],
}
