import type { PayloadRequest } from 'payload'

import { passwordResetMail } from '../../../lib/accountMail'
import { accountEndpoint, fieldErrors, noStore, siteName } from '../../../lib/accountHttp'
import { emailProblem, normalEmail } from '../../../lib/emailAddress'
import { limitByIp } from '../../../lib/rateLimit'
import { supportedLanguage, translator } from '../../../lib/i18n'
import { languageOf, translatorFor } from '../../../lib/i18n/request'
import { RATE_LIMITED_ALREADY } from '../../../../collections/Users/hooks/limitAuthAttempts'
import type { AccountsOptions } from '../options'

async function mailResetLink(req: PayloadRequest, email: string, baseUrl: string): Promise<void> {
  const token = await req.payload.forgotPassword({
    collection: 'users',
    data: { email },
    disableEmail: true,
    req,
    context: { [RATE_LIMITED_ALREADY]: true },
  })
  if (!token) return
  const user = await req.payload.find({ collection: 'users', where: { email: { equals: email } }, limit: 1, depth: 0, overrideAccess: true, req })
  // In the account's language; else the one the form was sent in.
  const t = translator(supportedLanguage(user.docs[0]?.language) ?? languageOf(req))
  const mail = passwordResetMail({ siteName: await siteName(req), baseUrl, token, name: user.docs[0]?.name, t })
  await req.payload.sendEmail({ to: email, subject: mail.subject, text: mail.text, html: mail.html })
}

/**
 * POST /api/accounts/password/forgot — the same answer, at the same moment,
 * whether or not the address has an account: the lookup, the token and the
 * mail happen after the answer is decided, off the request's clock.
 */
export const forgotPasswordEndpoint = ({ baseUrl }: AccountsOptions) =>
  accountEndpoint('post', '/password/forgot', async (req, body) => {
    const email = normalEmail(body.email)
    const t = translatorFor(req)
    const badEmail = emailProblem(email, t)
    if (badEmail) return fieldErrors({ email: badEmail })
    await limitByIp(req, 'passwordReset')
    void mailResetLink(req, email, baseUrl).catch((error: unknown) =>
      req.payload.logger.error({ err: error }, 'password-reset request failed'),
    )
    return Response.json(
      { message: t('forgot.sent') },
      { status: 200, headers: noStore() },
    )
  })
