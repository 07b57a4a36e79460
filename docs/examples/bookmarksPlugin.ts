/**
 * Reader bookmarks: the worked example of docs/EXTENDING.md, composed into a
 * real Payload by tests/integration/extending-example.test.ts. A collection
 * with access rules, a field added to Articles, a hook that enqueues a job,
 * an hourly schedule and a command. Its table: ./bookmarksMigration.ts.
 */
import type { CollectionConfig, Config, Field, Payload, PayloadRequest, Plugin } from 'payload'

import { publishedArticle } from '../../collections/Replies/access'
import { stampOwner } from '../../hooks/stampOwner'
import { addCommands, addJobs, addSchedules } from '../../jobs/commands'
import { enqueue } from '../../jobs/queue'
import { ownsOr, signedIn } from '../../src/access'
import { poolOf } from '../../src/lib/pool'
import { relationId } from '../../src/lib/relationId'

declare module '../../jobs/definitions' {
  interface JobData { 'count-bookmarks': { articleId: number } }
}

/** Server-owned: nobody writes it through the API; the job keeps it. */
const bookmarkCount: Field = { name: 'bookmarkCount', type: 'number', defaultValue: 0, access: { create: () => false, update: () => false }, admin: { readOnly: true, position: 'sidebar' } }

const countLater = async ({ doc, req }: { doc: { article: unknown }; req: PayloadRequest }) => {
  const articleId = relationId(doc.article) as number
  await enqueue(req, 'count-bookmarks', { articleId }, { key: `count-bookmarks-${articleId}` })
}

const Bookmarks: CollectionConfig = {
  slug: 'bookmarks',
  admin: { group: 'People', defaultColumns: ['article', 'reader', 'createdAt'] },
  // A reader sees and changes their own; holders of users.manage, everyone's.
  access: { read: ownsOr('users.manage', 'reader'), create: signedIn, update: ownsOr('users.manage', 'reader'), delete: ownsOr('users.manage', 'reader') },
  hooks: { beforeChange: [stampOwner('reader', 'users.manage')], afterChange: [countLater], afterDelete: [countLater] },
  fields: [
    { name: 'article', type: 'relationship', relationTo: 'articles', required: true, index: true, validate: publishedArticle('You can only bookmark a published article you can read.') },
    { name: 'reader', type: 'relationship', relationTo: 'users', index: true, access: { update: () => false } },
    { name: 'note', type: 'text', maxLength: 500 },
  ],
  indexes: [{ fields: ['article', 'reader'], unique: true }],
}

/** Idempotent: it recounts rather than adds one, so a retry changes nothing. */
async function countBookmarks(payload: Payload, { articleId }: { articleId: number }): Promise<void> {
  await poolOf(payload)!.query('update articles set bookmark_count = (select count(*) from bookmarks where article_id = $1) where id = $1', [articleId])
}

const recount = async (payload: Payload) => {
  const { rowCount } = (await poolOf(payload)!.query(`update articles a set bookmark_count = n from (select a2.id, count(b.id) n from articles a2 left join bookmarks b on b.article_id = a2.id group by a2.id) c where c.id = a.id and a.bookmark_count is distinct from c.n`)) as { rowCount: number }
  return `${rowCount} article(s) corrected`
}

const listTop = async (payload: Payload, io: { log: (line: string) => void }) => {
  const { rows } = (await poolOf(payload)!.query('select id, title, bookmark_count from articles where bookmark_count > 0 order by bookmark_count desc, id limit 10')) as { rows: { id: number; title: string; bookmark_count: string }[] }
  for (const row of rows) io.log(`${row.bookmark_count}  #${row.id} ${row.title}`)
  return `${rows.length} article(s) listed`
}

export const bookmarksPlugin = (): Plugin => (config: Config): Config => {
  const collections = (config.collections ?? []).map((c) => (c.slug === 'articles' ? { ...c, fields: [...c.fields, bookmarkCount] } : c))
  let next: Config = { ...config, collections: [...collections, Bookmarks] }
  next = addJobs(next, { 'count-bookmarks': { handler: countBookmarks, tries: 3 } })
  next = addSchedules(next, [{ name: 'recount-bookmarks', cron: '0 * * * *', description: 'Recount every article’s bookmarks (repairs imports that bypass Payload)', run: recount }])
  return addCommands(next, [{ name: 'top-bookmarks', description: 'List the ten most bookmarked articles', run: listTop }])
}
