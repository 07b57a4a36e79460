/**
 * Password rules and the current-password check that guards e-mail and
 * password changes. The check reads Payload's stored PBKDF2 hash (both its
 * current `pbkdf2-sha256-v1:` format and the legacy one) without logging in,
 * so it opens no extra session.
 */
import { pbkdf2, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

import type { Payload } from 'payload'

const pbkdf2Async = promisify(pbkdf2)
const CURRENT_PREFIX = 'pbkdf2-sha256-v1:'

export const MIN_PASSWORD_LENGTH = 8

/** A sentence for the form when the password is too weak, or undefined when it is acceptable. */
export function passwordProblem(password: unknown): string | undefined {
  if (typeof password !== 'string' || password.length === 0) return 'Choose a password.'
  if (password.length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`
  if (password.length > 256) return 'Use at most 256 characters.'
  if (/^(.)\1*$/.test(password) || /^(?:password|12345678|qwertyui)/i.test(password)) return 'This password is too easy to guess.'
  return undefined
}

async function matchesHash(password: string, salt: string, stored: string): Promise<boolean> {
  const current = stored.startsWith(CURRENT_PREFIX)
  const hex = current ? stored.slice(CURRENT_PREFIX.length) : stored
  const expected = Buffer.from(hex, 'hex')
  const actual = await pbkdf2Async(password, salt, current ? 600_000 : 25_000, current ? 32 : 512, 'sha256')
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

export async function isCurrentPassword(payload: Payload, userId: number, password: unknown): Promise<boolean> {
  if (typeof password !== 'string' || password === '') return false
  const user = (await payload.db.findOne({ collection: 'users', where: { id: { equals: userId } } })) as {
    salt?: string
    hash?: string
  } | null
  if (!user?.salt || !user.hash) return false
  return matchesHash(password, user.salt, user.hash)
}
