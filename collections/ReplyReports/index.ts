import type { CollectionConfig, PayloadRequest } from 'payload'

import { ownsOr, signedIn } from '../../src/access'
import { stampOwner } from '../../hooks/stampOwner'
import { validationTranslator } from '../../src/lib/i18n/request'
import { serverWritten } from '../../src/fields/serverOwned'
import { adminGroup, collectionLabels } from '../../src/lib/i18n/labels'

/**
 * A signed-in reader's report of a reply they can read: once per reply and
 * reader (a unique index, so a second report answers 400 on the reply field).
 * Moderators see reported replies in the moderation queue.
 */
export const ReplyReports: CollectionConfig = {
  slug: 'reply-reports',
  labels: collectionLabels('admin.replyReports'),
  admin: { useAsTitle: 'reason', defaultColumns: ['reply', 'reporter', 'reason', 'createdAt'], group: adminGroup('content') },
  access: { read: ownsOr('replies.moderate', 'reporter'), create: signedIn, update: () => false, delete: ownsOr('replies.moderate', 'reporter') },
  defaultSort: '-createdAt',
  hooks: { beforeChange: [stampOwner('reporter', 'replies.moderate')] },
  fields: [
    {
      name: 'reply',
      type: 'relationship',
      relationTo: 'replies',
      required: true,
      index: true,
      access: { update: () => false },
      // Only a reply the reporter can read (a held one of someone else's is not).
      validate: async (value: unknown, { req, operation }: { req: PayloadRequest; operation?: string }) => {
        if (operation !== 'create') return true
        const t = validationTranslator(req)
        const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined
        if (id === undefined) return t('validation.chooseReply')
        const found = await req.payload.findByID({ collection: 'replies', id, depth: 0, select: { article: true }, overrideAccess: false, user: req.user, disableErrors: true, req })
        if (!found) return t('validation.reportReadable')
        if (!req.user) return true
        const { totalDocs } = await req.payload.count({ collection: 'reply-reports', where: { and: [{ reply: { equals: id } }, { reporter: { equals: req.user.id } }] }, overrideAccess: true, req })
        return totalDocs === 0 || t('validation.reportedAlready')
      },
    },
    { name: 'reporter', type: 'relationship', relationTo: 'users', index: true, access: { update: () => false } },
    { name: 'reason', type: 'text', maxLength: 500 },
    { name: 'resolvedAt', type: 'date', access: serverWritten, admin: { readOnly: true } },
  ],
  indexes: [{ fields: ['reply', 'reporter'], unique: true }],
}
