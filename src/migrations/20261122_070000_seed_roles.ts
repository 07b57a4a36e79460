import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-postgres'

/**
 * Seeds the permission catalog and the four built-in roles.
 *
 * Frozen on purpose: the catalog and the seeding code below are copies of
 * src/access/catalog.ts and the seeding function as they were when this
 * migration was written. A migration must give the same result however the
 * live code changes later, so it imports none of it (tests/unit/migrations-frozen.test.ts).
 * A permission added later comes with a migration of its own that adds it.
 */
const PERMISSIONS: { slug: string; label: string; group: string }[] = [
  { slug: 'admin.access', label: 'Enter the admin', group: 'admin' },
  { slug: 'admin.dashboard', label: 'See dashboard statistics', group: 'admin' },
  { slug: 'roles.manage', label: 'Edit roles, permissions and anyone’s roles', group: 'admin' },
  { slug: 'settings.manage', label: 'Edit site settings', group: 'admin' },
  { slug: 'queue.monitor', label: 'Open the queue console', group: 'admin' },
  { slug: 'users.manage', label: 'Edit and delete any user', group: 'users' },
  { slug: 'users.switch', label: 'Switch user (debug only)', group: 'users' },
  { slug: 'articles.create', label: 'Write articles', group: 'articles' },
  { slug: 'articles.read.any', label: 'Read any article, drafts included', group: 'articles' },
  { slug: 'articles.update.any', label: 'Edit any article', group: 'articles' },
  { slug: 'articles.delete.any', label: 'Delete any article', group: 'articles' },
  { slug: 'categories.manage', label: 'Create, edit and delete categories', group: 'taxonomy' },
  { slug: 'tags.create', label: 'Create tags', group: 'taxonomy' },
  { slug: 'tags.manage', label: 'Edit and delete tags', group: 'taxonomy' },
  { slug: 'replies.create', label: 'Reply to articles', group: 'replies' },
  { slug: 'replies.update.any', label: 'Edit any reply', group: 'replies' },
  { slug: 'replies.delete.any', label: 'Delete any reply', group: 'replies' },
  { slug: 'media.create', label: 'Upload images', group: 'media' },
  { slug: 'media.update.any', label: 'Edit any upload', group: 'media' },
  { slug: 'media.delete.any', label: 'Delete any upload', group: 'media' },
  { slug: 'links.manage', label: 'Manage friendly links', group: 'links' },
  { slug: 'notifications.manage', label: 'Read and delete anyone’s notifications', group: 'users' },
]

const ALL = PERMISSIONS.map((p) => p.slug)
const readerGrants = ['replies.create', 'media.create']
const authorGrants = [...readerGrants, 'admin.access', 'articles.create', 'tags.create']

const ROLES: { slug: string; label: string; description: string; permissions: string[] }[] = [
  { slug: 'site-owner', label: 'Site owner', description: 'The first user of the site. Holds every permission, always.', permissions: ALL },
  {
    slug: 'administrator',
    label: 'Administrator',
    description: 'Runs the site day to day: content, users and settings.',
    permissions: ALL.filter((p) => !['roles.manage', 'queue.monitor', 'users.switch'].includes(p)),
  },
  { slug: 'author', label: 'Author', description: 'Writes articles and manages their own uploads.', permissions: authorGrants },
  { slug: 'reader', label: 'Reader', description: 'Reads, replies and keeps a profile.', permissions: readerGrants },
]

/** Adds the permissions and roles that are missing, never touching ones that exist. */
export async function up({ payload, req }: MigrateUpArgs): Promise<void> {
  const existing = await payload.find({ collection: 'permissions', limit: 1000, pagination: false, depth: 0, req })
  const idBySlug = new Map(existing.docs.map((p) => [p.slug, p.id]))
  for (const permission of PERMISSIONS) {
    if (idBySlug.has(permission.slug)) continue
    const doc = await payload.create({ collection: 'permissions', data: permission, req })
    idBySlug.set(permission.slug, doc.id)
  }
  for (const role of ROLES) {
    const found = await payload.find({ collection: 'roles', where: { slug: { equals: role.slug } }, limit: 1, depth: 0, req })
    if (found.docs[0]) continue
    const ids = role.permissions.map((slug) => idBySlug.get(slug)).filter((id): id is number => id !== undefined)
    await payload.create({
      collection: 'roles',
      data: { slug: role.slug, label: role.label, description: role.description, permissions: ids },
      req,
    })
  }
}

export async function down({ payload, req }: MigrateDownArgs): Promise<void> {
  await payload.delete({ collection: 'roles', where: { id: { exists: true } }, req })
  await payload.delete({ collection: 'permissions', where: { id: { exists: true } }, req })
}
