/**
 * Every permission Inkwell knows, and what each seeded role starts with.
 * The migration that seeds roles carries a frozen copy of this list; after that
 * the data in the Roles/Permissions collections is the truth and can be edited
 * in the admin. A permission added here needs a migration that adds it.
 */
export type PermissionDef = { slug: string; label: string; group: string }

export const PERMISSIONS: PermissionDef[] = [
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
  { slug: 'replies.moderate', label: 'Moderate replies (approve, spam, trash) and edit the moderation rules', group: 'replies' },
  { slug: 'media.create', label: 'Upload images', group: 'media' },
  { slug: 'media.update.any', label: 'Edit any upload', group: 'media' },
  { slug: 'media.delete.any', label: 'Delete any upload', group: 'media' },
  { slug: 'links.manage', label: 'Manage friendly links', group: 'links' },
  { slug: 'notifications.manage', label: 'Read and delete anyone’s notifications', group: 'users' },
  { slug: 'webhooks.manage', label: 'Manage webhooks and read their delivery log', group: 'admin' },
  { slug: 'import.run', label: 'Import a WordPress or Ghost blog and read the import reports', group: 'admin' },
]

export const ALL_PERMISSION_SLUGS = PERMISSIONS.map((p) => p.slug)

/** The role every site has: it holds every permission, whatever its list says. */
export const SITE_OWNER = 'site-owner'
export const ADMINISTRATOR = 'administrator'
export const AUTHOR = 'author'
export const READER = 'reader'

const readerGrants = ['replies.create', 'media.create']
const authorGrants = [...readerGrants, 'admin.access', 'articles.create', 'tags.create']

export const DEFAULT_ROLES: { slug: string; label: string; description: string; permissions: string[] }[] = [
  {
    slug: SITE_OWNER,
    label: 'Site owner',
    description: 'The first user of the site. Holds every permission, always.',
    permissions: ALL_PERMISSION_SLUGS,
  },
  {
    slug: ADMINISTRATOR,
    label: 'Administrator',
    description: 'Runs the site day to day: content, users and settings.',
    permissions: ALL_PERMISSION_SLUGS.filter((p) => !['roles.manage', 'queue.monitor', 'users.switch', 'webhooks.manage', 'import.run'].includes(p)),
  },
  {
    slug: AUTHOR,
    label: 'Author',
    description: 'Writes articles and manages their own uploads.',
    permissions: authorGrants,
  },
  {
    slug: READER,
    label: 'Reader',
    description: 'Reads, replies and keeps a profile.',
    permissions: readerGrants,
  },
]
