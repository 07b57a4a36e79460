import type { CollectionBeforeChangeHook, CollectionBeforeOperationHook } from 'payload'

import { REGISTRATION_FORM } from './registrationFormOnly'

/**
 * With REGISTER_VERIFY_EMAIL on, only readers registering through the form
 * must confirm their address; users created by the admin, the seed or the
 * application itself start verified. With it off, everyone does.
 */
export const markVerified =
  ({ verifyEmail }: { verifyEmail: boolean }): CollectionBeforeChangeHook =>
  ({ data, operation, context, req }) => {
    if (operation !== 'create') return data
    const fromForm = Boolean(context?.[REGISTRATION_FORM] || req.context?.[REGISTRATION_FORM])
    return verifyEmail && fromForm ? { ...data, _verified: false } : { ...data, _verified: true }
  }

/** Payload's verification mail is HTML-only and links to the admin; the accounts plugin sends its own. */
export const noPayloadVerificationMail: CollectionBeforeOperationHook = ({ args, operation }) => {
  if (operation === 'create') return { ...args, disableVerificationEmail: true }
  return args
}
