/**
 * Registration, scored like replies (issue 29): besides the captcha, the
 * register form carries a honeypot field (`website`, hidden from people; a
 * bot that fills every field fills it) and a signed stamp of when the form was
 * rendered (`formStamp`), so an account created seconds after its form was
 * served looks like a program. The register endpoint passes both on in the
 * create's context; `scoreRegistration` (a beforeChange hook on Users) refuses
 * a filled honeypot or a score at the spam threshold, and keeps the score on
 * the account: replies of an account that registered suspiciously are held.
 * With an Akismet key, Akismet's opinion of the sign-up is one more signal.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

import type { CollectionBeforeChangeHook, PayloadRequest } from 'payload'
import { ValidationError } from 'payload'

import { REGISTRATION_FORM } from '../../../collections/Users/hooks/registrationFormOnly'
import { askAkismet, visitorOf, type Akismet, type AkismetVerdict } from './akismet'
import { sigmoid } from './classifier'
import { validationTranslator } from '../../lib/i18n/request'
import { rulesOf } from './settings'
import { PRIOR_LOG_ODDS } from './score'
import { signals } from './signals'

/** Less than this between rendering the form and creating the account is faster than a person types. */
export const MIN_FORM_SECONDS = 3

const mac = (secret: string, at: string) => createHmac('sha256', secret).update(`register-form:${at}`).digest('base64url').slice(0, 22)

/** The register form's hidden stamp: when it was rendered, signed so a program cannot backdate it. */
export function formStamp(secret: string, now = Date.now()): string {
  const at = String(now)
  return `${at}.${mac(secret, at)}`
}

/** How long ago a stamp's form was rendered, or undefined for a missing or forged stamp. */
export function formAgeSeconds(secret: string, stamp: unknown, now = Date.now()): number | undefined {
  if (typeof stamp !== 'string' || stamp.length > 64) return undefined
  const [at, sig] = stamp.split('.')
  if (!at || !sig || !/^\d{13}$/.test(at)) return undefined
  const expected = Buffer.from(mac(secret, at))
  const given = Buffer.from(sig)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined
  return (now - Number(at)) / 1000
}

export type RegistrationForm = { honeypot?: string; formStamp?: string }

export function registrationSignals(form: RegistrationForm, fields: { name?: string; email?: string }, secret: string, akismet?: AkismetVerdict) {
  const found = signals(`${fields.name ?? ''} ${fields.email ?? ''}`, { akismet })
  const age = formAgeSeconds(secret, form.formStamp)
  if (age === undefined) found.push({ reason: 'no valid form stamp', weight: 1.5 })
  else if (age < MIN_FORM_SECONDS) found.push({ reason: `form filled in ${age.toFixed(1)} s`, weight: 3 })
  if (/https?:\/\/|www\./i.test(fields.name ?? '')) found.push({ reason: 'a link in the name', weight: 3 })
  const score = Math.round(sigmoid(PRIOR_LOG_ODDS + found.reduce((s, x) => s + x.weight, 0)) * 1000) / 1000
  return { score, reasons: found.map((s) => s.reason) }
}

/** Akismet's opinion of a sign-up from the public form; undefined when it is off or there is no visitor. */
async function signupOpinion(req: PayloadRequest, akismet: Akismet | undefined, fields: { name?: string; email?: string }): Promise<AkismetVerdict | undefined> {
  const visitor = akismet && visitorOf(req)
  if (!akismet || !visitor) return undefined
  return askAkismet(akismet, { ...visitor, type: 'signup', name: fields.name, email: fields.email }, req.payload.logger)
}

export const scoreRegistration =
  (akismet: Akismet | undefined): CollectionBeforeChangeHook =>
  async ({ data, operation, req }) => {
    if (operation !== 'create') return data
    const form = req.context?.[REGISTRATION_FORM]
    if (!form || typeof form !== 'object') return data // not the public form: the admin, a manager, the application
    const { honeypot, formStamp: stamp } = form as RegistrationForm
    const refuse = () => {
      throw new ValidationError({ collection: 'users', errors: [{ path: 'email', message: validationTranslator(req)('error.moderation.registrationRefused') }] })
    }
    if (typeof honeypot === 'string' && honeypot.trim() !== '') refuse()
    const verdict = await signupOpinion(req, akismet, data)
    const { score, reasons } = registrationSignals({ formStamp: stamp }, data, req.payload.secret, verdict)
    const rules = await rulesOf(req)
    if (score >= rules.spamThreshold) {
      req.payload.logger.info({ reasons }, 'registration refused as spam')
      refuse()
    }
    return { ...data, registrationScore: score }
  }
