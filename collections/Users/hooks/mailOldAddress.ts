import type { CollectionAfterChangeHook, CollectionAfterOperationHook, CollectionBeforeChangeHook, PayloadRequest } from 'payload'

import { accountChangedMail, takeTokenOutcome, type AccountChange } from '../../../src/lib/accountMail'

type MailTarget = { email?: string | null; name?: string | null }

async function sendChangeMail(req: PayloadRequest, baseUrl: string, to: MailTarget & { id: number }, changes: AccountChange[], newEmail?: string | null) {
  if (!to.email || changes.length === 0) return
  const settings = await req.payload.findGlobal({ slug: 'site-settings', depth: 0, overrideAccess: true, req })
  const siteName = (settings as { siteName?: string }).siteName || 'Inkwell'
  // What the change did to the account's access tokens, when the access-token feature noted it (it is optional).
  const tokens = changes.includes('password') ? takeTokenOutcome(req.context, to.id) : undefined
  const mail = accountChangedMail({ siteName, baseUrl, changes, name: to.name, newEmail, tokens })
  // Awaited: a change whose warning could not be sent is reported, not silently kept.
  await req.payload.sendEmail({ to: to.email, subject: mail.subject, text: mail.text, html: mail.html })
}

/** Payload drops the plain password from `data` once it is hashed, so the change is noted (per user id) before that. */
const PASSWORD_CHANGED = 'inkwellPasswordChanged'

export const notePasswordChange: CollectionBeforeChangeHook = ({ data, operation, originalDoc, context }) => {
  if (operation === 'update' && originalDoc && typeof data.password === 'string' && data.password !== '') {
    context[PASSWORD_CHANGED] = [...((context[PASSWORD_CHANGED] as unknown[]) ?? []), originalDoc.id]
  }
  return data
}

/** Every password or e-mail change through an update (any path) is told to the address the account had before. */
export const mailOldAddressOnChange =
  (baseUrl: string): CollectionAfterChangeHook =>
  async ({ doc, previousDoc, operation, req, context }) => {
    if (operation !== 'update' || !previousDoc) return doc
    const changes: AccountChange[] = []
    const changedPasswords = (context[PASSWORD_CHANGED] as unknown[] | undefined) ?? []
    if (changedPasswords.includes(doc.id)) {
      changes.push('password')
      context[PASSWORD_CHANGED] = changedPasswords.filter((id) => id !== doc.id)
    }
    if (doc.email && previousDoc.email && doc.email !== previousDoc.email) changes.push('email')
    await sendChangeMail(req, baseUrl, { ...previousDoc, id: doc.id }, changes, doc.email)
    return doc
  }

/** A password chosen through a reset link is a change too (Payload's reset operation runs no change hooks). */
export const mailOnPasswordReset =
  (baseUrl: string): CollectionAfterOperationHook =>
  async ({ operation, result, req }) => {
    if (operation !== 'resetPassword') return result
    const user = (result as { user?: MailTarget & { id: number } } | undefined)?.user
    if (user) await sendChangeMail(req, baseUrl, user, ['password'])
    return result
  }
