/**
 * How every module of this folder reaches Payload: the instance of this same
 * process (the one-origin server provides it, see src/lib/sitePayload.ts),
 * read through the Local API, always with `overrideAccess: false`.
 */
import type { Payload } from 'payload'

import { sitePayload } from '../../../../src/lib/sitePayload'
import type { User } from '../../../../src/payload-types'

export const payload = (): Payload => sitePayload().payload

/** Every read obeys the collections' access rules; a null user is the anonymous public. */
export const asPublic = { overrideAccess: false, user: null } as const
export const asVisitor = (user: User) => ({ overrideAccess: false, user: { ...user, collection: 'users' as const } })

/** A user as the site shows them beside their words: name and avatar (depth 2 reaches the avatar's image). */
export const PERSON = { users: { name: true, avatar: true }, media: { url: true, sizes: true } } as const

export type Page<T> = {
  docs: T[]
  totalDocs: number
  totalPages: number
  page?: number
  limit: number
  hasNextPage: boolean
  hasPrevPage: boolean
}
