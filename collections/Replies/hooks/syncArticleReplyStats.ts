import type { CollectionAfterChangeHook, CollectionAfterDeleteHook, PayloadRequest } from 'payload'

import { sql } from '@payloadcms/db-postgres'

import { transactionDb } from '../../../src/lib/pool'
import { relationId } from '../../../src/lib/relationId'
import { publicReplySql } from '../access'

/**
 * Derived data kept by a Payload hook (the rule: src/lib/pool.ts): the reply
 * count and last reply are read beside the article, so they are recounted
 * inside the reply's own transaction and commit or roll back with it.
 *
 * Recounts from the replies table rather than incrementing, so counts can't
 * drift. Only published replies count (the column exists with or without the
 * moderation plugin, whose held, spam and trashed replies readers never see);
 * a change of state recounts too. The article row is locked first, in its own statement, so that under
 * READ COMMITTED the recount's fresh snapshot sees every reply committed by a
 * concurrent writer that held the lock before us. FOR NO KEY UPDATE, not FOR
 * UPDATE: each concurrent reply insert holds a FOR KEY SHARE lock on the
 * article (its foreign key), which FOR UPDATE would wait on — a deadlock.
 */
export async function recountReplies(req: PayloadRequest, articleId: number): Promise<void> {
  const db = await transactionDb(req)
  await db.execute(sql`select id from articles where id = ${articleId} for no key update`)
  await db.execute(sql`
    update articles set
      reply_count = (select count(*) from replies where article_id = ${articleId} and ${sql.raw(publicReplySql())}),
      last_reply_at = (select max(created_at) from replies where article_id = ${articleId} and ${sql.raw(publicReplySql())})
    where id = ${articleId}`)
}

export const syncStatsAfterCreate: CollectionAfterChangeHook = async ({ doc, previousDoc, operation, req }) => {
  const articleId = relationId(doc.article)
  if (articleId && (operation === 'create' || doc.status !== previousDoc?.status)) await recountReplies(req, articleId)
  return doc
}

export const syncStatsAfterDelete: CollectionAfterDeleteHook = async ({ doc, req }) => {
  const articleId = relationId(doc.article)
  if (articleId) await recountReplies(req, articleId)
  return doc
}
