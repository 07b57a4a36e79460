/**
 * The public total of a reader-site list (the home, a category, a tag, an
 * author) for its pagination, read from the summary counts instead of
 * counted: at 1,000,000 articles counting the home's index entries took
 * ~136 ms, a tag's 200,000 relation rows ~67 ms; this reads one row.
 *
 * `public_list_counts` (migration 20261126_180500) holds per list the
 * published articles, scheduled ones included, kept exactly by triggers in
 * the writing transaction. An article scheduled for later becomes public when
 * its time comes, with no write, so the total subtracts the list's published
 * articles whose time is still ahead: an index range scan of
 * `published_at > now()` over the few scheduled rows (the partial
 * articles_live_* indexes), exact at the request's moment.
 */
import type { Payload } from 'payload'

import { poolOf } from '../../src/lib/pool'
import { COUNTED_NOT_YET_PUBLIC_SQL } from './access'

/** A list the summary counts: the whole site, or one category, tag or author. */
export type ArticleList = { list: 'site' } | { list: 'category' | 'tag' | 'author'; id: number }

/** Which of the scheduled articles are in the list (`$2` is its id). */
const IN_LIST: Record<ArticleList['list'], string> = {
  site: 'true',
  category: 'a.category_id = $2',
  author: 'a.author_id = $2',
  // `articles_rels` holds tags only (see taggedLists.ts); an article tagged twice is one article.
  tag: 'exists (select 1 from articles_rels r where r.parent_id = a.id and r.tags_id = $2)',
}

/** How many articles the public sees in this list now. */
export async function publicListTotal(payload: Payload, list: ArticleList): Promise<number> {
  const { rows } = await poolOf(payload).query<{ total: string }>(
    `select coalesce((select c.articles from public_list_counts c where c.list = $1 and c.id = $2), 0)
          - (select count(*) from articles a where ${COUNTED_NOT_YET_PUBLIC_SQL} and ${IN_LIST[list.list]}) as total`,
    [list.list, 'id' in list ? list.id : 0],
  )
  return Number(rows[0]?.total ?? 0)
}
