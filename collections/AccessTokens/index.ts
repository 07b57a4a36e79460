import type { CollectionConfig, Validate } from 'payload'

import { validationTranslator } from '../../src/lib/i18n/request'
import { TOKEN_SCOPES } from '../../src/plugins/accessTokens/tokens'
import { createOwnToken, ownTokensOrManager, renameOwnToken } from './access'
import { issueSecret, showTokenOnce } from './hooks/issueSecret'
import { bothLanguages, adminGroup, collectionLabels, optionLabels } from '../../src/lib/i18n/labels'

export const TOKEN_NAME_MAX_LENGTH = 80

const inTheFuture: Validate = (value, { operation, previousValue, req }) => {
  if (value === null || value === undefined || value === '') return true
  const when = new Date(value as string)
  if (Number.isNaN(when.getTime())) return validationTranslator(req)('validation.expiryDate')
  // An expiry already set may pass (a token is renamed after it expired); a new one must lie ahead.
  if (operation === 'update' && previousValue && new Date(previousValue as string).getTime() === when.getTime()) return true
  return when.getTime() > Date.now() ? true : validationTranslator(req)('validation.expiryFuture')
}

/**
 * Personal access tokens for scripts and the command line. Each is shown once
 * (in the answer that creates it), stored as a hash, and accepted as
 * `Authorization: Bearer <token>` or `?access_token=<token>` by the
 * access-token strategy on Users (src/plugins/accessTokens). Revoking a
 * token deletes it.
 */
export const AccessTokens: CollectionConfig = {
  slug: 'access-tokens',
  labels: collectionLabels('admin.accessTokens'),
  admin: {
    useAsTitle: 'name',
    group: adminGroup('people'),
    defaultColumns: ['name', 'scope', 'user', 'publicId', 'expiresAt', 'lastUsedAt'],
    description: bothLanguages('admin.accessTokens.description'),
    // The create view would save a token nobody sees (the secret is only in the create answer): this form shows it.
    components: { beforeListTable: ['/src/plugins/accessTokens/admin/AccessTokenCreator#AccessTokenCreator'] },
  },
  access: { read: ownTokensOrManager, create: createOwnToken, update: renameOwnToken, delete: ownTokensOrManager },
  defaultSort: '-createdAt',
  hooks: { beforeChange: [issueSecret], afterRead: [showTokenOnce] },
  fields: [
    { name: 'name', type: 'text', required: true, maxLength: TOKEN_NAME_MAX_LENGTH, admin: { description: bothLanguages('admin.field.accessTokens.name') } },
    {
      name: 'scope',
      type: 'select',
      required: true,
      defaultValue: 'read',
      options: optionLabels('admin.option.tokenScope', TOKEN_SCOPES),
      access: { update: () => false },
    },
    { name: 'expiresAt', type: 'date', validate: inTheFuture, admin: { description: bothLanguages('admin.field.accessTokens.expiresAt') }, access: { update: () => false } },
    { name: 'user', type: 'relationship', relationTo: 'users', index: true, admin: { readOnly: true }, access: { update: () => false } },
    // Server-owned: drawn by issueSecret, never written by a client.
    { name: 'publicId', type: 'text', unique: true, index: true, admin: { readOnly: true, description: bothLanguages('admin.field.accessTokens.publicId') }, access: { create: () => false, update: () => false } },
    { name: 'secretHash', type: 'text', hidden: true, access: { create: () => false, update: () => false } },
    { name: 'lastUsedAt', type: 'date', admin: { readOnly: true }, access: { create: () => false, update: () => false } },
  ],
}
