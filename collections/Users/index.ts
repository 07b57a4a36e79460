import { validations, type CollectionConfig, type PayloadRequest, type TextFieldSingleValidation } from 'payload'

import { anyone, fieldCan, fieldSelfOr, hasPermission } from '../../src/access'
import { passwordResetMail } from '../../src/lib/accountMail'
import { displayNameProblem } from '../../src/lib/displayName'
import { emailProblem } from '../../src/lib/emailAddress'
import { validationTranslator } from '../../src/lib/i18n/request'
import { managerOfLesser, selfOrManagerOfLesser } from './access'
import { resetMailArgs } from './hooks/resetMailArgs'
import { assignInitialRoles } from './hooks/assignInitialRoles'
import { guardCredentialChanges } from './hooks/credentialChanges'
import { lockoutAnswersAsWrongPassword } from './hooks/lockoutAnswer'
import { equalizeLoginTime } from './hooks/loginTiming'
import { mailOldAddressOnChange, mailOnPasswordReset, notePasswordChange } from './hooks/mailOldAddress'
import { enforcePasswordPolicy } from './hooks/passwordPolicy'
import { lookUpResetTokenDigest, storeResetTokenDigest } from './hooks/resetTokens'
import { capSessionLifetime } from './hooks/sessionLifetime'
import { keepASiteOwnerOnDelete, keepASiteOwnerOnUpdate } from './hooks/keepASiteOwner'
import { limitAuthAttempts } from './hooks/limitAuthAttempts'
import { markVerified, noPayloadVerificationMail } from './hooks/emailVerification'
import { registrationFormOnly } from './hooks/registrationFormOnly'
import { languageFromBrowser } from './hooks/languageFromBrowser'
import { bothLanguages, adminGroup, collectionLabels } from '../../src/lib/i18n/labels'
import { LANGUAGE_NAMES } from '../../src/lib/i18n/names'

export type UsersOptions = { secureCookies: boolean; baseUrl: string; verifyEmail: boolean; sessionMaxAgeSeconds: number }

const nobodyWrites = { create: () => false, update: () => false }

/** A signed token lives a week at most, and never longer than the absolute session lifetime. */
const TOKEN_SECONDS = 60 * 60 * 24 * 7

export function createUsers({ secureCookies, baseUrl, verifyEmail, sessionMaxAgeSeconds }: UsersOptions): CollectionConfig {
  const tokenSeconds = Math.min(TOKEN_SECONDS, sessionMaxAgeSeconds)
  return {
    slug: 'users',
    labels: collectionLabels('admin.users'),
    auth: {
      maxLoginAttempts: 5,
      lockTime: 10 * 60 * 1000,
      tokenExpiration: tokenSeconds,
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
      group: adminGroup('people'),
    },
    access: {
      admin: ({ req }) => hasPermission(req, 'admin.access'),
      // Registration is public; what a registrant may set is limited field by field.
      create: anyone,
      // Profiles are public; e-mail and identities are guarded per field.
      read: anyone,
      update: selfOrManagerOfLesser,
      delete: managerOfLesser,
      unlock: ({ req }) => hasPermission(req, 'users.manage'),
    },
    hooks: {
      beforeOperation: [
        limitAuthAttempts,
        registrationFormOnly,
        noPayloadVerificationMail,
        enforcePasswordPolicy,
        guardCredentialChanges,
        equalizeLoginTime,
        lookUpResetTokenDigest,
        capSessionLifetime({ maxAgeSeconds: sessionMaxAgeSeconds, tokenSeconds }),
      ],
      beforeChange: [markVerified({ verifyEmail }), assignInitialRoles, keepASiteOwnerOnUpdate, storeResetTokenDigest, notePasswordChange],
      afterChange: [mailOldAddressOnChange(baseUrl)],
      afterOperation: [mailOnPasswordReset(baseUrl)],
      afterError: [lockoutAnswersAsWrongPassword],
      beforeDelete: [keepASiteOwnerOnDelete],
    },
    fields: [
      {
        name: 'email',
        type: 'email',
        access: { read: fieldSelfOr('users.manage') },
        // Replaces Payload's check, whose pattern is polynomial on long input: the length first, then a linear pattern.
        validate: (value: unknown, { req }: { req: PayloadRequest }) => emailProblem(value, validationTranslator(req)) ?? true,
      },
      {
        // Never stored or returned: the proof of knowing the password that an e-mail or password change needs
        // (checked by hooks/credentialChanges on every path, REST, GraphQL and the Local API).
        name: 'currentPassword',
        type: 'text',
        virtual: true,
        maxLength: 128,
        // Readable on purpose (the admin only shows fields one may read), but it always reads empty:
        // an update's answer never echoes it.
        admin: {
          description: bothLanguages('admin.field.users.currentPassword'),
          // Masked, with the browser's current-password autofill (a plain text field showed it as typed).
          components: { Field: '/src/plugins/accounts/admin/CurrentPasswordField#CurrentPasswordField' },
        },
        hooks: { afterRead: [() => undefined] },
      },
      {
        name: 'name',
        type: 'text',
        required: true,
        maxLength: 80,
        // One line of visible text: no line breaks, tabs or other control characters (src/lib/displayName.ts).
        validate: ((value, args) => displayNameProblem(value, validationTranslator(args.req)) ?? validations.text(value, args)) satisfies TextFieldSingleValidation,
      },
      { name: 'avatar', type: 'upload', relationTo: 'media' },
      { name: 'introduction', type: 'textarea', maxLength: 2000 },
      {
        // The interface language (reader site, admin, mails); set from the browser's Accept-Language on registration.
        name: 'language',
        type: 'select',
        // Each language by its own name, whatever the admin's language (as the site's switcher shows them).
        options: LANGUAGE_NAMES.map(([value, label]) => ({ value, label })),
        admin: { description: bothLanguages('admin.field.users.language') },
        access: { read: fieldSelfOr('users.manage') },
        hooks: { beforeChange: [languageFromBrowser] },
      },
      {
        name: 'roles',
        type: 'relationship',
        relationTo: 'roles',
        hasMany: true,
        index: true,
        saveToJWT: false,
        admin: { position: 'sidebar', description: bothLanguages('admin.field.users.roles') },
        access: { create: fieldCan('roles.manage'), update: fieldCan('roles.manage') },
      },
      {
        name: 'activedAt',
        label: bothLanguages('admin.field.users.activedAt.label'),
        type: 'date',
        index: true,
        admin: { position: 'sidebar', readOnly: true, description: bothLanguages('admin.field.users.activedAt') },
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
