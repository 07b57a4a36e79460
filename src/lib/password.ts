/**
 * The one password policy (ASVS 2.1.1, 2.1.2, 2.1.7): 12 to 128 characters,
 * not a common password, and the current-password check that guards e-mail
 * and password changes. The check reads Payload's stored PBKDF2 hash (both its
 * current `pbkdf2-sha256-v1:` format and the legacy one) without logging in,
 * so it opens no extra session.
 */
import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

import { dictionary } from '@zxcvbn-ts/language-common'
import type { Payload } from 'payload'

import { readHiddenAuthFields } from './pool'
import { translator, type Translate } from './i18n'

const pbkdf2Async = promisify(pbkdf2)
const CURRENT_PREFIX = 'pbkdf2-sha256-v1:'
const CURRENT_ITERATIONS = 600_000

export const MIN_PASSWORD_LENGTH = 12
export const MAX_PASSWORD_LENGTH = 128

/** Separators ignored when looking a password up in the common list. */
export const PASSWORD_SEPARATORS = /[\s._-]/g

/** zxcvbn-ts's list of the ~30,000 most common passwords (lower case), loaded once. */
let commonPasswords: Set<string> | undefined
function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common'])
  const lower = password.toLowerCase()
  // Spaces and separators do not make a listed password safe ("pass word 1234").
  return commonPasswords.has(lower) || commonPasswords.has(lower.replace(PASSWORD_SEPARATORS, ''))
}

/** A sentence for the form (in `t`'s language) when the password breaks the policy, or undefined when it is acceptable. */
export function passwordProblem(password: unknown, t: Translate = translator('en')): string | undefined {
  if (typeof password !== 'string' || password.length === 0) return t('error.password.choose')
  if (password.length > MAX_PASSWORD_LENGTH) return t('error.password.tooLong', { max: MAX_PASSWORD_LENGTH })
  if (password.length < MIN_PASSWORD_LENGTH) return t('error.password.tooShort', { min: MIN_PASSWORD_LENGTH })
  if (new Set(password).size < 3 || isCommonPassword(password)) return t('error.password.common')
  return undefined
}

async function matchesHash(password: string, salt: string, stored: string): Promise<boolean> {
  const current = stored.startsWith(CURRENT_PREFIX)
  const hex = current ? stored.slice(CURRENT_PREFIX.length) : stored
  const expected = Buffer.from(hex, 'hex')
  const actual = await pbkdf2Async(password, salt, current ? CURRENT_ITERATIONS : 25_000, current ? 32 : 512, 'sha256')
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

export async function isCurrentPassword(payload: Payload, userId: number | string, password: unknown): Promise<boolean> {
  if (typeof password !== 'string' || password === '' || password.length > MAX_PASSWORD_LENGTH) return false
  const user = await readHiddenAuthFields(payload, userId)
  if (!user?.salt || !user.hash) return false
  return matchesHash(password, user.salt, user.hash)
}

const dummySalt = randomBytes(32).toString('hex')

/**
 * Spends what checking a real password costs, for answers about addresses
 * that have no account (or are locked), so the time of an answer does not
 * tell whether an account exists.
 */
export async function spendPasswordCheckTime(password: unknown): Promise<void> {
  const text = typeof password === 'string' ? password.slice(0, MAX_PASSWORD_LENGTH) : ''
  await pbkdf2Async(text, dummySalt, CURRENT_ITERATIONS, 32, 'sha256')
}
