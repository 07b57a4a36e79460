import type { PayloadRequest } from 'payload'

import { accountExistsMail, verifyEmailMail } from '../../../lib/accountMail'
import {
  accountEndpoint,
  cookieValue,
  fieldErrors,
  noStore,
  sessionCookie,
  siteName,
  validationFieldErrors,
  type FieldErrors,
} from '../../../lib/accountHttp'
import { CAPTCHA_COOKIE, checkCaptcha } from '../captcha'
import type { Translate } from '../../../lib/i18n'
import { translatorFor } from '../../../lib/i18n/request'
import { emailProblem, normalEmail } from '../../../lib/emailAddress'
import { passwordProblem, spendPasswordCheckTime } from '../../../lib/password'
import { readHiddenAuthFields } from '../../../lib/pool'
import { limitByIp } from '../../../lib/rateLimit'
import { REGISTRATION_FORM } from '../../../../collections/Users/hooks/registrationFormOnly'
import type { AccountsOptions } from '../options'

async function emailTaken(req: PayloadRequest, email: string): Promise<boolean> {
  const { totalDocs } = await req.payload.count({ collection: 'users', where: { email: { equals: email } }, overrideAccess: true, req })
  return totalDocs > 0
}

const checkYourMail = (email: string, t: Translate) =>
  Response.json(
    { verify: true, message: t('register.checkMail', { email }) },
    { status: 201, headers: noStore() },
  )

/** The form's own mistakes, judged without reading anything stored (so they may be told with a wrong captcha). */
function formErrors(t: Translate, body: { email?: string; name?: string; password?: string; passwordConfirm?: string }): FieldErrors {
  const errors: FieldErrors = {}
  const badEmail = emailProblem(normalEmail(body.email), t)
  if (badEmail) errors.email = badEmail
  if (!(body.name ?? '').trim()) errors.name = t('validation.name')
  const weak = passwordProblem(body.password, t)
  if (weak) errors.password = weak
  else if (body.password !== body.passwordConfirm) errors.passwordConfirm = t('validation.passwordsDiffer')
  return errors
}

/**
 * POST /api/accounts/register — captcha, e-mail, name, password twice. Every
 * mistake of the form is reported at once, the captcha's with the others; but
 * nothing stored (a taken address) is consulted before the captcha is right,
 * so a program that cannot read it learns nothing a person could not see in the form's rules.
 * With REGISTER_VERIFY_EMAIL, a taken address answers exactly as a new one
 * (the owner gets a mail instead), so registration does not tell who has an account.
 */
export const registerEndpoint = (options: AccountsOptions) =>
  accountEndpoint('post', '/register', async (req, body) => {
    // Every attempt counts toward the per-IP limit, with or without a right captcha.
    await limitByIp(req, 'register')
    // In the visitor's language (the site forwards their cookie and Accept-Language).
    const t = translatorFor(req)
    const errors = formErrors(t, body)
    const captchaResult = await checkCaptcha(req.payload, cookieValue(req, CAPTCHA_COOKIE), body.captcha)
    const unanswered = typeof body.captcha !== 'string' || body.captcha.trim() === ''
    if (captchaResult === 'wrong') errors.captcha = unanswered ? t('validation.captchaEmpty') : t('validation.captchaWrong')
    else if (captchaResult !== 'ok') errors.captcha = t('validation.captchaExpired')
    if (Object.keys(errors).length) return fieldErrors(errors)

    const email = normalEmail(body.email)
    const name = (body.name ?? '').trim()

    if (await emailTaken(req, email)) {
      if (!options.verifyEmail) return fieldErrors({ email: t('validation.emailTaken') })
      // The same work and the same answer as a new registration: a hash's time, one mail, 201.
      await spendPasswordCheckTime(body.password)
      const mail = accountExistsMail({ siteName: await siteName(req), baseUrl: options.baseUrl })
      await req.payload.sendEmail({ to: email, subject: mail.subject, text: mail.text, html: mail.html })
      return checkYourMail(email, t)
    }

    let created
    try {
      created = await req.payload.create({
        collection: 'users',
        data: { email, name, password: body.password! },
        overrideAccess: false,
        // The form's spam signals (a honeypot, when it was rendered), for whoever scores registrations (the moderation plugin).
        context: { [REGISTRATION_FORM]: { honeypot: body.website ?? '', formStamp: body.formStamp ?? '' } },
        req,
      })
    } catch (error) {
      const fromValidation = validationFieldErrors(error)
      if (fromValidation) return fieldErrors(fromValidation)
      throw error
    }
    if (options.verifyEmail) {
      // Not signed in yet: the mailed link confirms the address first.
      const stored = await readHiddenAuthFields(req.payload, created.id, req)
      const mail = verifyEmailMail({ siteName: await siteName(req), baseUrl: options.baseUrl, token: stored?._verificationToken ?? '', name, t })
      await req.payload.sendEmail({ to: email, subject: mail.subject, text: mail.text, html: mail.html })
      return checkYourMail(email, t)
    }
    const { token, user } = await req.payload.login({ collection: 'users', data: { email, password: body.password! }, req })
    const headers = noStore()
    headers.append('Set-Cookie', sessionCookie(req, token!, { remember: false, secure: options.secureCookies }))
    return Response.json({ user: { id: user?.id, name: user?.name } }, { status: 201, headers })
  })
