/**
 * How every module of this folder reaches Payload: the instance of this same
 * process (the one-origin server provides it, see src/lib/sitePayload.ts),
 * read through the Local API, always with `overrideAccess: false`.
 */
import type { Payload } from 'payload'

import { sitePayload } from '../../../../src/lib/sitePayload'
import type { User } from '../../../../src/payload-types'
import type { OptionalPlugin } from '../../../../src/plugins'
import { isComposed } from '../../../../src/plugins/pluginOptions'

export const payload = (): Payload => sitePayload().payload

/**
 * Whether an optional plugin is composed (src/plugins/index.ts). Its data
 * modules answer "nothing" without it, and pages leave out its parts (the
 * search box, the bell, the follow button, the token section) or answer 404.
 */
export const composed = (plugin: OptionalPlugin): boolean => isComposed(payload(), plugin)

/** The optional parts of the site's chrome, for the layout to pass down. */
export type SiteFeatures = { search: boolean; notifications: boolean; accessTokens: boolean; activity: boolean }
export const siteFeatures = (): SiteFeatures => ({
  search: composed('search'),
  notifications: composed('notifications'),
  accessTokens: composed('accessTokens'),
  activity: composed('activity'),
})

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
