/** Replies: a writer's or an article's list, an article's threads, and the visitor's follow of them. */
import type { Where } from 'payload'

import type { Reply, User } from '../../../../src/payload-types'
import { asPublic, asVisitor, composed, payload, PERSON, type Page } from './payload'
import { idOf } from './refs'

export async function listReplies(
  { article, author, page = 1, limit = 20, newestFirst = false }: { article?: number; author?: number; page?: number; limit?: number; newestFirst?: boolean },
): Promise<Page<Reply>> {
  const where: Where = {}
  if (article) where.article = { equals: article }
  if (author) where.author = { equals: author }
  return (await payload().find({
    collection: 'replies',
    where,
    page,
    limit,
    sort: newestFirst ? '-createdAt' : 'createdAt',
    ...REPLY_VIEW,
    ...asPublic,
  })) as unknown as Page<Reply> // selected fields only: what a reply shows
}

/** What a shown reply needs: its writer with their avatar, and its article's title and link. */
const REPLY_VIEW = {
  depth: 2,
  // guestName: the name an imported comment was signed with (the import plugin's field; ignored without it).
  select: { html: true, body: true, parent: true, createdAt: true, updatedAt: true, author: true, article: true, status: true, guestName: true },
  populate: { ...PERSON, articles: { title: true, slug: true } },
} as const

/** A reply on its own article's page: the article is the page itself, so it is not read again. */
const THREAD_VIEW = {
  depth: 2,
  select: { html: true, body: true, parent: true, createdAt: true, updatedAt: true, author: true, status: true, guestName: true },
  populate: PERSON,
} as const

export type Thread = { replies: Page<Reply>; answers: Map<number, Reply[]>; total: number }

/**
 * An article's replies as threads: a page of top-level replies, oldest first,
 * each with all its answers (threads are one level deep), and the count of
 * every reply.
 */
export async function listThreads(article: number, { page = 1, limit = 20, me }: { page?: number; limit?: number; me?: User | null } = {}): Promise<Thread> {
  const [replies, total, mine] = await Promise.all([
    payload().find({
      collection: 'replies',
      where: { and: [{ article: { equals: article } }, { parent: { exists: false } }] },
      page,
      limit,
      sort: 'createdAt',
      ...THREAD_VIEW,
      ...asPublic,
    }) as unknown as Promise<Page<Reply>>,
    payload().count({ collection: 'replies', where: { article: { equals: article } }, ...asPublic }),
    ownWaitingReplies(article, me),
  ])
  // The visitor's own replies awaiting moderation (everyone else's page is the public one):
  // new threads at the end of the last page, answers under their thread.
  const lastPage = page >= Math.max(1, replies.totalPages ?? 1)
  if (lastPage) replies.docs = [...replies.docs, ...mine.filter((r) => !idOf(r.parent))]
  const answers = new Map<number, Reply[]>()
  if (replies.docs.length > 0) {
    const found = await payload().find({
      collection: 'replies',
      where: { and: [{ article: { equals: article } }, { parent: { in: replies.docs.map((r) => r.id) } }] },
      sort: 'createdAt',
      pagination: false,
      ...THREAD_VIEW,
      ...asPublic,
    })
    const onPage = new Set(replies.docs.map((r) => r.id))
    const answersOf = [...(found.docs as Reply[]), ...mine.filter((r) => onPage.has(idOf(r.parent) ?? 0))]
    for (const answer of answersOf) {
      const parentId = idOf(answer.parent)!
      answers.set(parentId, [...(answers.get(parentId) ?? []), answer])
    }
  }
  return { replies, answers, total: total.totalDocs }
}

/** The visitor's replies to this article that wait for a moderator (none without the moderation plugin). */
async function ownWaitingReplies(article: number, me: User | null | undefined): Promise<Reply[]> {
  if (!me || !composed('moderation')) return []
  const { docs } = await payload().find({
    collection: 'replies',
    where: { and: [{ article: { equals: article } }, { author: { equals: me.id } }, { status: { in: ['held', 'spam'] } }] },
    sort: 'createdAt',
    // The first 50 of the visitor's own held replies; their total is not shown, so not counted.
    pagination: false,
    limit: 50,
    ...THREAD_VIEW,
    ...asVisitor(me),
  })
  return docs as unknown as Reply[]
}

/** The page of an article's threads that shows this reply (its top-level reply's page). */
export async function threadPageOf(reply: { id: number; parent?: unknown; createdAt: string }, articleId: number, perPage = 20): Promise<number> {
  const topId = idOf(reply.parent) ?? reply.id
  const top = topId === reply.id ? reply : await payload().findByID({ collection: 'replies', id: topId, depth: 0, select: { createdAt: true }, disableErrors: true, ...asPublic })
  if (!top) return 1
  const { totalDocs } = await payload().count({
    collection: 'replies',
    where: { and: [{ article: { equals: articleId } }, { parent: { exists: false } }, { createdAt: { less_than_equal: top.createdAt } }] },
    ...asPublic,
  })
  return Math.max(1, Math.ceil(totalDocs / perPage))
}

/** The visitor's follow of an article's replies, if any (follows come with the notifications plugin). */
export async function followOf(me: User, article: number): Promise<number | null> {
  if (!composed('notifications')) return null
  const { docs } = await payload().find({
    collection: 'follows',
    where: { and: [{ article: { equals: article } }, { follower: { equals: me.id } }] },
    // One row or none: no count query (a signed-in page's every query counts).
    pagination: false,
    limit: 1,
    depth: 0,
    select: { article: true },
    ...asVisitor(me),
  })
  return docs[0]?.id ?? null
}
