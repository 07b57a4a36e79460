/**
 * The reader site's account endpoints, under /api/accounts. They are thin:
 * each checks its input field by field, then calls Payload's own auth
 * operations (login, logout, forgot/reset password) so sessions, lockout and
 * hooks behave exactly as in the admin.
 */
import { logoutOperation, type Endpoint, type PayloadRequest } from 'payload'

import { passwordResetMail, verifyEmailMail } from '../lib/accountMail'
import {
  cookieValue,
  expiredSessionCookie,
  fieldErrors,
  noStore,
  readBody,
  sessionCookie,
  type FieldErrors,
} from '../lib/accountHttp'
import { avatarFileName, sniffAvatar } from '../lib/avatarImage'
import { CAPTCHA_COOKIE, CAPTCHA_TTL_MS, checkCaptcha, createCaptcha } from '../lib/captcha'
import { isCurrentPassword, passwordProblem } from '../lib/password'
import { limitByIp } from '../lib/rateLimit'
import { safeRedirect } from '../lib/safeRedirect'
import type { AccountsOptions } from './accounts'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The context flag that lets a public HTTP registration through (see collections/Users/hooks/registrationFormOnly). */
import { REGISTRATION_FORM } from '../../collections/Users/hooks/registrationFormOnly'
export { REGISTRATION_FORM }

type UserLike = { id: number; email?: string | null; name?: string | null; avatar?: unknown }

function signedInUser(req: PayloadRequest): UserLike | undefined {
  return req.user && req.user.collection === 'users' ? (req.user as unknown as UserLike) : undefined
}

function errorStatus(error: unknown): number {
  return typeof error === 'object' && error && 'status' in error ? Number((error as { status: unknown }).status) : 500
}

/** Turns a Payload ValidationError into field messages (e.g. a taken e-mail found by the unique index). */
function validationFieldErrors(error: unknown): FieldErrors | undefined {
  const data = (error as { data?: { errors?: { path?: string; message?: string }[] } })?.data
  if (!data?.errors?.length) return undefined
  return Object.fromEntries(data.errors.map((e) => [e.path ?? 'form', e.message ?? 'Invalid value.']))
}

async function emailTaken(req: PayloadRequest, email: string, exceptId?: number): Promise<boolean> {
  const { totalDocs } = await req.payload.count({
    collection: 'users',
    where: { and: [{ email: { equals: email } }, ...(exceptId ? [{ id: { not_equals: exceptId } }] : [])] },
    overrideAccess: true,
    req,
  })
  return totalDocs > 0
}

async function siteName(req: PayloadRequest): Promise<string> {
  const settings = await req.payload.findGlobal({ slug: 'site-settings', depth: 0, overrideAccess: true, req })
  return (settings as { siteName?: string }).siteName || 'Inkwell'
}

async function signIn(req: PayloadRequest, email: string, password: string) {
  return req.payload.login({ collection: 'users', data: { email, password }, req })
}

export function accountEndpoints(options: AccountsOptions): Endpoint[] {
  const secure = options.secureCookies

  /** GET /api/accounts/captcha — a fresh SVG challenge bound to this browser by an HttpOnly cookie. */
  const captcha: Endpoint = {
    path: '/accounts/captcha',
    method: 'get',
    handler: async (req) => {
      const { token, svg } = await createCaptcha(req.payload)
      const headers = noStore(new Headers({ 'Content-Type': 'image/svg+xml; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }))
      headers.append(
        'Set-Cookie',
        `${CAPTCHA_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${CAPTCHA_TTL_MS / 1000}${secure ? '; Secure' : ''}`,
      )
      return new Response(svg, { status: 200, headers })
    },
  }

  /** POST /api/accounts/register — e-mail, name, password twice, captcha. Nothing else is read. */
  const register: Endpoint = {
    path: '/accounts/register',
    method: 'post',
    handler: async (req) => {
      await limitByIp(req, 'register')
      const body = await readBody(req)
      const email = (body.email ?? '').trim().toLowerCase()
      const name = (body.name ?? '').trim()
      const errors: FieldErrors = {}

      const captchaResult = await checkCaptcha(req.payload, cookieValue(req, CAPTCHA_COOKIE), body.captcha)
      if (captchaResult === 'wrong') errors.captcha = 'The characters do not match the picture. Try the new one.'
      if (captchaResult === 'expired' || captchaResult === 'missing')
        errors.captcha = 'The picture has expired. Type the characters of the new one.'
      if (!EMAIL.test(email)) errors.email = 'Enter a valid e-mail address.'
      else if (await emailTaken(req, email)) errors.email = 'An account with this e-mail already exists.'
      if (!name) errors.name = 'Enter your name.'
      else if (name.length > 80) errors.name = 'Use at most 80 characters.'
      const weak = passwordProblem(body.password)
      if (weak) errors.password = weak
      else if (body.password !== body.passwordConfirm) errors.passwordConfirm = 'The two passwords differ.'
      if (Object.keys(errors).length) return fieldErrors(errors)

      let created
      try {
        created = await req.payload.create({
          collection: 'users',
          data: { email, name, password: body.password! },
          overrideAccess: false,
          context: { [REGISTRATION_FORM]: true },
          req,
        })
      } catch (error) {
        const fromValidation = validationFieldErrors(error)
        if (fromValidation) return fieldErrors(fromValidation)
        throw error
      }
      if (options.verifyEmail) {
        // Not signed in yet: the mailed link confirms the address first.
        const stored = (await req.payload.db.findOne({ collection: 'users', where: { id: { equals: created.id } }, req })) as {
          _verificationToken?: string
        } | null
        const mail = verifyEmailMail({ siteName: await siteName(req), baseUrl: options.baseUrl, token: stored?._verificationToken ?? '', name })
        await req.payload.sendEmail({ to: email, subject: mail.subject, text: mail.text, html: mail.html })
        return Response.json(
          { verify: true, message: `Almost done: open the link we mailed to ${email} to confirm your address, then sign in.` },
          { status: 201, headers: noStore() },
        )
      }
      const { token, user } = await signIn(req, email, body.password!)
      const headers = noStore()
      headers.append('Set-Cookie', sessionCookie(req, token!, { remember: false, secure }))
      return Response.json({ user: { id: user?.id, name: user?.name } }, { status: 201, headers })
    },
  }

  /** POST /api/accounts/login — e-mail, password, remember, next (a local path only). */
  const login: Endpoint = {
    path: '/accounts/login',
    method: 'post',
    handler: async (req) => {
      const body = await readBody(req)
      const email = (body.email ?? '').trim().toLowerCase()
      const redirect = safeRedirect(body.next)
      if (!email || !body.password) {
        return fieldErrors({
          ...(email ? {} : { email: 'Enter your e-mail address.' }),
          ...(body.password ? {} : { password: 'Enter your password.' }),
        })
      }
      const previousUser = req.user
      let result
      try {
        result = await signIn(req, email, body.password)
      } catch (error) {
        const status = errorStatus(error)
        if (status === 429) throw error
        const message = (error as Error).message ?? ''
        if ((error as Error).name === 'UnverifiedEmail') {
          return fieldErrors({ form: 'Confirm your e-mail address first: open the link in the mail we sent you.' }, 403)
        }
        if (/locked/i.test(message)) {
          return fieldErrors(
            { form: 'This account is locked after too many failed attempts. Try again in 10 minutes, or reset your password.' },
            423,
          )
        }
        if (status === 401 || status === 403) return fieldErrors({ form: 'The e-mail or password is incorrect.' }, 401)
        throw error
      }
      // Payload's login opened a new session (new sid), so the session is fresh;
      // the one this browser held before, if any, is closed.
      if (previousUser?.collection === 'users' && (previousUser as { _sid?: string })._sid) {
        req.user = previousUser
        await logoutOperation({ collection: req.payload.collections.users, req }).catch(() => undefined)
      }
      const headers = noStore()
      headers.append('Set-Cookie', sessionCookie(req, result.token!, { remember: body.remember === 'on' || body.remember === 'true', secure }))
      return Response.json({ redirect, user: { id: result.user?.id, name: result.user?.name } }, { status: 200, headers })
    },
  }

  /** POST /api/accounts/logout — ends this session on the server, then expires the cookie. */
  const logout: Endpoint = {
    path: '/accounts/logout',
    method: 'post',
    handler: async (req) => {
      if (signedInUser(req)) await logoutOperation({ collection: req.payload.collections.users, req })
      const headers = noStore()
      headers.append('Set-Cookie', expiredSessionCookie(req))
      return Response.json({ message: 'Signed out.' }, { status: 200, headers })
    },
  }

  /** POST /api/accounts/profile — name, introduction; e-mail and password only with the current password. */
  const profile: Endpoint = {
    path: '/accounts/profile',
    method: 'post',
    handler: async (req) => {
      const user = signedInUser(req)
      if (!user) return fieldErrors({ form: 'Sign in to edit your profile.' }, 401)
      const body = await readBody(req)
      const errors: FieldErrors = {}
      const data: Record<string, unknown> = {}

      if (body.name !== undefined) {
        const name = body.name.trim()
        if (!name) errors.name = 'Enter your name.'
        else if (name.length > 80) errors.name = 'Use at most 80 characters.'
        else data.name = name
      }
      if (body.introduction !== undefined) {
        // Plain text: the site escapes it when it shows it, so no markup survives.
        const introduction = body.introduction.replace(/\r\n/g, '\n').trim()
        if (introduction.length > 2000) errors.introduction = 'Use at most 2000 characters.'
        else data.introduction = introduction
      }
      const email = body.email?.trim().toLowerCase()
      const changesEmail = Boolean(email) && email !== user.email
      const changesPassword = Boolean(body.newPassword)
      if (changesEmail) {
        if (!EMAIL.test(email!)) errors.email = 'Enter a valid e-mail address.'
        else if (await emailTaken(req, email!, user.id)) errors.email = 'An account with this e-mail already exists.'
        else data.email = email
      }
      if (changesPassword) {
        const weak = passwordProblem(body.newPassword)
        if (weak) errors.newPassword = weak
        else if (body.newPassword !== body.newPasswordConfirm) errors.newPasswordConfirm = 'The two passwords differ.'
        else data.password = body.newPassword
      }
      if ((changesEmail || changesPassword) && !(await isCurrentPassword(req.payload, user.id, body.currentPassword))) {
        errors.currentPassword = 'Enter your current password to change your e-mail or password.'
      }
      if (Object.keys(errors).length) return fieldErrors(errors)

      try {
        const updated = await req.payload.update({ collection: 'users', id: user.id, data, overrideAccess: false, req, depth: 1 })
        return Response.json(
          { message: 'Profile saved.', user: { id: updated.id, name: updated.name, email: updated.email, introduction: updated.introduction } },
          { status: 200, headers: noStore() },
        )
      } catch (error) {
        const fromValidation = validationFieldErrors(error)
        if (fromValidation) return fieldErrors(fromValidation)
        throw error
      }
    },
  }

  /** POST /api/accounts/avatar — multipart: `file` (the image) and `type=avatar`. */
  const avatar: Endpoint = {
    path: '/accounts/avatar',
    method: 'post',
    handler: async (req) => {
      const user = signedInUser(req)
      if (!user) return fieldErrors({ form: 'Sign in to change your avatar.' }, 401)
      const tooLarge = () =>
        fieldErrors({ file: `The image is larger than ${Math.round(options.avatarMaxBytes / 1024 / 1024)} MB.` }, 413)
      // Refuse an oversized body before reading it; multipart framing adds a few hundred bytes.
      const declared = Number(req.headers.get('content-length') ?? 0)
      if (declared > options.avatarMaxBytes + 64 * 1024) return tooLarge()

      let form: FormData
      try {
        form = await req.formData!()
      } catch {
        return fieldErrors({ file: 'Send the image as multipart/form-data with a field named "file".' })
      }
      if (form.get('type') !== 'avatar') return fieldErrors({ type: 'The upload type must be "avatar".' })
      const file = form.get('file')
      if (!file || typeof file === 'string' || file.size === 0) return fieldErrors({ file: 'Choose an image to upload.' })
      if (file.size > options.avatarMaxBytes) return tooLarge()

      const bytes = Buffer.from(await file.arrayBuffer())
      const kind = await sniffAvatar(bytes)
      if (!kind) return fieldErrors({ file: 'Upload a JPEG, PNG, WebP or GIF image.' }, 415)

      const previous = typeof user.avatar === 'object' && user.avatar ? (user.avatar as { id: number }).id : user.avatar
      const media = await req.payload.create({
        collection: 'media',
        data: { alt: `Avatar of ${user.name ?? 'a reader'}` },
        file: { data: bytes, mimetype: kind.mime, name: avatarFileName(file.name, kind.ext), size: bytes.length },
        overrideAccess: false,
        req,
      })
      await req.payload.update({ collection: 'users', id: user.id, data: { avatar: media.id }, overrideAccess: false, req })
      if (typeof previous === 'number' && previous !== media.id) {
        // The old picture is no longer used anywhere; removing it is best effort.
        await req.payload.delete({ collection: 'media', id: previous, overrideAccess: false, req }).catch(() => undefined)
      }
      return Response.json(
        {
          avatar: {
            id: media.id,
            mimeType: media.mimeType,
            url: media.url,
            thumbnailURL: media.sizes?.thumbnail?.url ?? media.url,
            squareURL: media.sizes?.square?.url ?? media.url,
          },
        },
        { status: 201, headers: noStore() },
      )
    },
  }

  /** POST /api/accounts/password/forgot — the same answer whether or not the address has an account. */
  const forgotPassword: Endpoint = {
    path: '/accounts/password/forgot',
    method: 'post',
    handler: async (req) => {
      const body = await readBody(req)
      const email = (body.email ?? '').trim().toLowerCase()
      if (!EMAIL.test(email)) return fieldErrors({ email: 'Enter a valid e-mail address.' })
      const token = await req.payload.forgotPassword({ collection: 'users', data: { email }, disableEmail: true, req })
      if (token) {
        const user = await req.payload.find({ collection: 'users', where: { email: { equals: email } }, limit: 1, depth: 0, overrideAccess: true, req })
        const mail = passwordResetMail({ siteName: await siteName(req), baseUrl: options.baseUrl, token, name: user.docs[0]?.name })
        // Not awaited: answering only after the SMTP exchange would tell, by the delay, that the address exists.
        void Promise.resolve(req.payload.sendEmail({ to: email, subject: mail.subject, text: mail.text, html: mail.html })).catch((error: unknown) =>
          req.payload.logger.error({ err: error }, `password-reset mail to ${email} failed`),
        )
      }
      return Response.json(
        { message: 'If an account uses this address, a mail with a link to choose a new password is on its way. The link works for 60 minutes.' },
        { status: 200, headers: noStore() },
      )
    },
  }

  /** POST /api/accounts/password/reset — token, password twice; signs out every other session and signs this browser in. */
  const resetPassword: Endpoint = {
    path: '/accounts/password/reset',
    method: 'post',
    handler: async (req) => {
      const body = await readBody(req)
      const errors: FieldErrors = {}
      if (!body.token) errors.token = 'This reset link is incomplete. Ask for a new one.'
      const weak = passwordProblem(body.password)
      if (weak) errors.password = weak
      else if (body.password !== body.passwordConfirm) errors.passwordConfirm = 'The two passwords differ.'
      if (Object.keys(errors).length) return fieldErrors(errors)
      try {
        const { token } = await req.payload.resetPassword({
          collection: 'users',
          data: { token: body.token!, password: body.password! },
          overrideAccess: true,
          req,
        })
        const headers = noStore()
        if (token) headers.append('Set-Cookie', sessionCookie(req, token, { remember: false, secure }))
        return Response.json({ message: 'Your password has been changed.' }, { status: 200, headers })
      } catch (error) {
        if (errorStatus(error) === 403) return fieldErrors({ token: 'This reset link has expired or was already used. Ask for a new one.' })
        throw error
      }
    },
  }

  /** POST /api/accounts/verify — the token from the confirmation mail. */
  const verifyEmail: Endpoint = {
    path: '/accounts/verify',
    method: 'post',
    handler: async (req) => {
      const body = await readBody(req)
      if (!body.token) return fieldErrors({ token: 'This confirmation link is incomplete.' })
      try {
        await req.payload.verifyEmail({ collection: 'users', token: body.token })
      } catch (error) {
        const status = errorStatus(error)
        if (status >= 400 && status < 500) return fieldErrors({ token: 'This confirmation link is not valid, or was already used.' })
        throw error
      }
      return Response.json({ message: 'Your e-mail address is confirmed. You can sign in now.' }, { status: 200, headers: noStore() })
    },
  }

  return [captcha, register, login, logout, profile, avatar, forgotPassword, resetPassword, verifyEmail]
}
