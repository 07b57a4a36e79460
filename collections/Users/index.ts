import type { CollectionConfig } from 'payload'

import { anyone, can, fieldCan, fieldSelfOr, hasPermission } from '../../src/access'
import { passwordResetMail } from '../../src/lib/accountMail'
import { selfOrManager } from './access'
import { resetMailArgs } from './hooks/resetMailArgs'
import { assignInitialRoles } from './hooks/assignInitialRoles'
import { keepASiteOwnerOnDelete, keepASiteOwnerOnUpdate } from './hooks/keepASiteOwner'
import { limitAuthAttempts } from './hooks/limitAuthAttempts'
import { markVerified, noPayloadVerificationMail } from './hooks/emailVerification'
import { registrationFormOnly } from './hooks/registrationFormOnly'

export type UsersOptions = { secureCookies: boolean; baseUrl: string; verifyEmail: boolean }

const nobodyWrites = { create: () => false, update: () => false }

export function createUsers({ secureCookies, baseUrl, verifyEmail }: UsersOptions): CollectionConfig {
  return {
    slug: 'users',
    auth: {
      maxLoginAttempts: 5,
      lockTime: 10 * 60 * 1000,
      tokenExpiration: 60 * 60 * 24 * 7,
      useSessions: true,
      // Always on, so the schema does not depend on a setting; with REGISTER_VERIFY_EMAIL off
      // every new user starts verified (see markVerified), and the accounts plugin sends the mail.
      verify: true,
      cookies: { sameSite: 'Lax', secure: secureCookies },
      // Reset links work once, for 60 minutes; the mail itself is sent by the accounts plugin.
      forgotPassword: {
        expiration: 60 * 60 * 1000,
        // Payload's own /api/users/forgot-password (the admin's form) mails the reader site's link too.
        generateEmailSubject: async (args) => passwordResetMail(await resetMailArgs(args, baseUrl)).subject,
        generateEmailHTML: async (args) => passwordResetMail(await resetMailArgs(args, baseUrl)).html,
      },
    },
    admin: {
      useAsTitle: 'name',
      defaultColumns: ['name', 'email', 'roles', 'activedAt', 'createdAt'],
      group: 'People',
    },
    access: {
      admin: ({ req }) => hasPermission(req, 'admin.access'),
      // Registration is public; what a registrant may set is limited field by field.
      create: anyone,
      // Profiles are public; e-mail and identities are guarded per field.
      read: anyone,
      update: selfOrManager,
      delete: can('users.manage'),
      unlock: ({ req }) => hasPermission(req, 'users.manage'),
    },
    hooks: {
      beforeOperation: [limitAuthAttempts, registrationFormOnly, noPayloadVerificationMail],
      beforeChange: [markVerified({ verifyEmail }), assignInitialRoles, keepASiteOwnerOnUpdate],
      beforeDelete: [keepASiteOwnerOnDelete],
    },
    fields: [
      {
        name: 'email',
        type: 'email',
        access: { read: fieldSelfOr('users.manage') },
      },
      { name: 'name', type: 'text', required: true, maxLength: 80 },
      { name: 'avatar', type: 'upload', relationTo: 'media' },
      { name: 'introduction', type: 'textarea', maxLength: 2000 },
      {
        name: 'roles',
        type: 'relationship',
        relationTo: 'roles',
        hasMany: true,
        index: true,
        saveToJWT: false,
        admin: { position: 'sidebar', description: 'Set automatically on registration: first user site owner, second administrator.' },
        access: { create: fieldCan('roles.manage'), update: fieldCan('roles.manage') },
      },
      {
        name: 'oauthIdentities',
        type: 'array',
        admin: { readOnly: true, description: 'Accounts at sign-in providers linked to this user.' },
        access: { read: fieldSelfOr('users.manage'), ...nobodyWrites },
        fields: [
          { name: 'provider', type: 'text', required: true, index: true },
          { name: 'subject', type: 'text', required: true, index: true },
          { name: 'linkedAt', type: 'date' },
        ],
      },
      {
        name: 'activedAt',
        label: 'Last active',
        type: 'date',
        index: true,
        admin: { position: 'sidebar', readOnly: true, description: 'When unknown, the registration time is shown.' },
        access: nobodyWrites,
      },
      {
        name: 'unreadNotifications',
        type: 'number',
        defaultValue: 0,
        min: 0,
        admin: { position: 'sidebar', readOnly: true },
        access: { read: fieldSelfOr('users.manage'), ...nobodyWrites },
      },
    ],
    timestamps: true,
  }
}
