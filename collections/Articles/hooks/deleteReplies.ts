import { APIError, type CollectionBeforeDeleteHook } from 'payload'

/**
 * An article's replies go with it. A reply always belongs to an article
 * (its column is required), so the database's "set null" on the foreign key
 * would refuse the article's deletion with a 500. Deleted through Payload, in
 * the same transaction, each reply's own hooks still run (counters, the
 * render cache's purge); if any cannot be deleted, neither is the article.
 */
export const deleteReplies: CollectionBeforeDeleteHook = async ({ id, req }) => {
  const { errors } = await req.payload.delete({
    collection: 'replies',
    where: { article: { equals: id } },
    depth: 0,
    overrideAccess: true, // whoever may delete the article may delete its discussion
    req,
  })
  if (errors.length > 0) throw new APIError(`The article's replies could not be deleted: ${errors[0]!.message}`, 500)
}
