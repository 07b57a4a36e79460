import type { Access, Where } from 'payload'

import { hasPermission } from '../../src/access'

const published: Where = { status: { equals: 'published' } }

/** Everyone reads published articles; authors also their own drafts; holders of the permission everything. */
export const publishedOrOwn: Access = async ({ req }) => {
  if (!req.user) return published
  if (await hasPermission(req, 'articles.read.any')) return true
  return { or: [published, { author: { equals: req.user.id } }] }
}
