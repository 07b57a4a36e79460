/** Published articles: a page of cards, one article's page, the feeds' newest with their bodies. */
import type { Where } from 'payload'

import type { Article, Category, Tag, User } from '../../../../src/payload-types'
import { type ArticleList, publicListTotal } from '../../../../collections/Articles/listTotals'
import { publicArticlesWithTag } from '../../../../collections/Articles/taggedLists'
import { asPublic, payload, PERSON, type Page } from './payload'
import { idOf } from './refs'

/** What a list card needs, and no more. */
const CARD = {
  depth: 2,
  select: { title: true, slug: true, excerpt: true, language: true, publishedAt: true, viewCount: true, replyCount: true, lastReplyAt: true, author: true, category: true, tags: true },
  populate: { ...PERSON, categories: { name: true, slug: true }, tags: { name: true, slug: true } },
} as const

export type ArticleSort = 'new' | 'replied'
export type ArticleFilter = { category?: number; tag?: number; author?: number }

/**
 * A page of article cards, in two reads: the page's ids and the count first
 * (narrow: no card fields, no tag rows), then the cards of just those ids. In
 * one read, Payload would build the tag list of every article it skips over,
 * so page 500 of a category cost 90 ms instead of 11. A tag's newest articles
 * are chosen in SQL (collections/Articles/taggedLists.ts), where Payload's
 * join on the relation rows costs a tag on 20% of 100,000 articles 130 ms.
 * The newest-first lists of the site, a category, a tag or an author take
 * their total from the summary counts (collections/Articles/listTotals.ts)
 * instead of counting up to a million index entries per page view.
 * Both reads obey the Articles access rules for the ids they return.
 */
export async function listArticles(
  { page = 1, limit = 10, sort = 'new', ...filter }: { page?: number; limit?: number; sort?: ArticleSort } & ArticleFilter = {},
): Promise<Page<Article>> {
  const counted = countedList(sort, filter)
  const { ids, totalDocs } = counted?.list === 'tag'
    ? await publicArticlesWithTag(payload(), counted.id, { page, limit })
    : await articleIdsPage(listWhere(sort, filter), sort, page, limit, counted)
  const totalPages = Math.ceil(totalDocs / limit)
  return { docs: await cardsOf(ids), totalDocs, totalPages, page, limit, hasNextPage: page < totalPages, hasPrevPage: page > 1 }
}

function listWhere(sort: ArticleSort, filter: ArticleFilter): Where {
  const where: Where[] = [{ status: { equals: 'published' } }]
  if (sort === 'replied') where.push({ lastReplyAt: { exists: true } })
  if (filter.category) where.push({ category: { equals: filter.category } })
  if (filter.tag) where.push({ tags: { in: [filter.tag] } })
  if (filter.author) where.push({ author: { equals: filter.author } })
  return { and: where }
}

/** The list whose total the summary counts keep, when the filter names one of them (newest first). */
function countedList(sort: ArticleSort, filter: ArticleFilter): ArticleList | undefined {
  if (sort !== 'new') return undefined
  const named = (['category', 'tag', 'author'] as const).filter((list) => filter[list])
  if (named.length === 0) return { list: 'site' }
  if (named.length === 1) return { list: named[0]!, id: filter[named[0]!]! }
  return undefined
}

/** A page of ids; its total is Payload's count, or the summary's when the list has one (Payload then counts nothing). */
async function articleIdsPage(where: Where, sort: ArticleSort, page: number, limit: number, counted?: ArticleList) {
  const [found, total] = await Promise.all([
    payload().find({
      collection: 'articles',
      select: {}, // the id alone
      depth: 0,
      where,
      sort: sort === 'replied' ? '-lastReplyAt' : '-publishedAt',
      page,
      limit,
      pagination: !counted, // without pagination Payload still applies page and limit, and skips its count
      ...asPublic,
    }),
    counted ? publicListTotal(payload(), counted) : undefined,
  ])
  return { ids: found.docs.map((doc) => doc.id), totalDocs: total ?? found.totalDocs }
}

/** The cards of these articles, in this order (an article hidden meanwhile is left out). */
async function cardsOf(ids: number[]): Promise<Article[]> {
  if (ids.length === 0) return []
  const found = await payload().find({ collection: 'articles', ...CARD, where: { id: { in: ids } }, pagination: false, limit: ids.length, ...asPublic })
  const byId = new Map((found.docs as unknown as Article[]).map((doc) => [doc.id, doc])) // selected fields only: what a card shows
  return ids.flatMap((id) => byId.get(id) ?? [])
}

/** A published article with what its page shows, or null. */
export async function getArticle(id: number): Promise<Article | null> {
  const article = (await payload().findByID({
    collection: 'articles',
    id,
    // Depth 2: the author's avatar is an upload of the author.
    depth: 2,
    // The page shows the rendered HTML: the editors' sources (Markdown, the rich-text tree) stay in the database.
    select: { markdown: false, content: false },
    populate: { users: { name: true, avatar: true }, categories: { name: true, slug: true }, tags: { name: true, slug: true }, media: { url: true, alt: true, width: true, height: true, sizes: true } },
    disableErrors: true,
    ...asPublic,
  })) as Article | null
  return article?.status === 'published' ? article : null
}

/**
 * The newest articles with their bodies, for the feeds. Their author, category
 * and tags are read here with one find per collection, in parallel, instead
 * of `depth: 1`: Payload's populate resolves them one collection after another
 * and cost 6.5 ms of a feed's 10 (20 articles), this 3.
 */
export async function latestArticlesWithBody(limit = 20): Promise<Article[]> {
  const found = await payload().find({
    collection: 'articles',
    where: { status: { equals: 'published' } },
    sort: '-publishedAt',
    limit,
    pagination: false, // a feed shows no count: none is made
    depth: 0,
    select: { title: true, slug: true, excerpt: true, html: true, publishedAt: true, updatedAt: true, author: true, category: true, tags: true },
    ...asPublic,
  })
  const articles = found.docs as Article[]
  const idsOf = (refs: unknown[]) => [...new Set(refs.map(idOf).filter((id): id is number => id !== undefined))]
  const byId = <T extends { id: number }>(docs: T[]) => new Map(docs.map((doc) => [doc.id, doc]))
  const read = <T extends { id: number }>(collection: 'users' | 'categories' | 'tags', ids: number[], select: Record<string, true>) =>
    ids.length === 0
      ? Promise.resolve(new Map<number, T>())
      : payload().find({ collection, where: { id: { in: ids } }, select, depth: 0, pagination: false, limit: ids.length, ...asPublic }).then((r) => byId(r.docs as unknown as T[]))
  // Feeds name categories and tags by slug (Atom term) and link to their pages.
  const [authors, categories, tags] = await Promise.all([
    read<User>('users', idsOf(articles.map((a) => a.author)), { name: true }),
    read<Category>('categories', idsOf(articles.map((a) => a.category)), { name: true, slug: true }),
    read<Tag>('tags', idsOf(articles.flatMap((a) => a.tags ?? [])), { name: true, slug: true }),
  ])
  // What the public may not read stays an id, as `depth` leaves it.
  const populate = <T>(ref: unknown, found: Map<number, T>) => found.get(idOf(ref) ?? NaN) ?? ref
  return articles.map((a) => ({
    ...a,
    author: populate(a.author, authors) as Article['author'],
    category: populate(a.category, categories) as Article['category'],
    tags: (a.tags ?? []).map((t) => populate(t, tags)) as Article['tags'],
  }))
}
