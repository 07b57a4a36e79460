import type { Payload } from 'payload'

import type { User } from '../../src/payload-types'

export const PASSWORD = 'correct horse battery staple'

export async function roleId(payload: Payload, slug: string): Promise<number> {
  const { docs } = await payload.find({ collection: 'roles', where: { slug: { equals: slug } }, limit: 1, depth: 0 })
  if (!docs[0]) throw new Error(`no role ${slug}`)
  return docs[0].id
}

/** Registers a user the way the public would (no acting user, access enforced). */
export async function register(payload: Payload, email: string, extra: Record<string, unknown> = {}): Promise<User> {
  return payload.create({
    collection: 'users',
    data: { email, password: PASSWORD, name: email.split('@')[0], ...extra } as never,
    overrideAccess: false,
  })
}

export async function giveRole(payload: Payload, user: User, slug: string): Promise<User> {
  return payload.update({ collection: 'users', id: user.id, data: { roles: [await roleId(payload, slug)] } })
}

/** The cast of the access matrix, registered in order: owner first, administrator second. */
export async function createCast(payload: Payload) {
  const owner = await register(payload, 'owner@example.test')
  const admin = await register(payload, 'admin@example.test')
  const author = await giveRole(payload, await register(payload, 'author@example.test'), 'author')
  const otherAuthor = await giveRole(payload, await register(payload, 'author2@example.test'), 'author')
  const reader = await register(payload, 'reader@example.test')
  return { owner, admin, author, otherAuthor, reader }
}
