import type { CollectionConfig } from 'payload'

import { nobody, ownsOr } from '../../src/access'
import { OAUTH_PROVIDERS } from '../../src/plugins/oauth/settings'
import { keepASignInMethod } from './hooks/keepASignInMethod'
import { oneIdentityPerProvider } from './hooks/oneIdentityPerProvider'
import { bothLanguages, adminGroup, collectionLabels } from '../../src/lib/i18n/labels'

/**
 * Accounts at sign-in providers, each linked to one user. Only the sign-in
 * flow creates them (src/plugins/oauth/accounts.ts, through the Local API);
 * the person or a user manager may remove one, but never a user's last way
 * to sign in (keepASignInMethod, on every path).
 */
export const OAuthIdentities: CollectionConfig = {
  slug: 'oauth-identities',
  labels: collectionLabels('admin.oauthIdentities'),
  graphQL: { singularName: 'OAuthIdentity', pluralName: 'OAuthIdentities' },
  admin: {
    useAsTitle: 'provider',
    defaultColumns: ['provider', 'user', 'email', 'createdAt'],
    group: adminGroup('people'),
    description: bothLanguages('admin.oauthIdentities.description'),
  },
  access: {
    read: ownsOr('users.manage', 'user'),
    create: nobody,
    update: nobody,
    delete: ownsOr('users.manage', 'user'),
  },
  // One identity at a provider belongs to one user, whatever path writes it.
  indexes: [{ fields: ['provider', 'subject'], unique: true }],
  hooks: {
    beforeChange: [oneIdentityPerProvider],
    beforeDelete: [keepASignInMethod],
  },
  fields: [
    { name: 'user', type: 'relationship', relationTo: 'users', required: true, index: true },
    {
      name: 'provider',
      type: 'text',
      required: true,
      validate: (value: unknown) =>
        (OAUTH_PROVIDERS as readonly unknown[]).includes(value) || `Use one of the sign-in providers: ${OAUTH_PROVIDERS.join(', ')}.`,
    },
    // The provider's stable id for the person (OpenID `sub`, GitHub's numeric id, …); never the e-mail.
    { name: 'subject', type: 'text', required: true, maxLength: 255 },
    { name: 'email', type: 'text', maxLength: 320, admin: { description: bothLanguages('admin.field.oauthIdentities.email') } },
    { name: 'emailVerified', type: 'checkbox', defaultValue: false },
    { name: 'name', type: 'text', maxLength: 200 },
  ],
  timestamps: true,
}
