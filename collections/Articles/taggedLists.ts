/**
 * Which public articles a tag's page shows (newest first), chosen in SQL.
 *
 * Tags are a hasMany relationship (rows in `articles_rels`). Payload filters
 * on one with a join, `select distinct`, and counts with `COUNT(1) OVER()`
 * grouped by article: at 100,000 articles, a tag on 20% of them took 130 ms to
 * count and 25–110 ms to page. Here:
 *
 *  - the count is the tag's summary count (listTotals.ts) less its scheduled
 *    articles: one row and a few index probes (counting the tag's 200,000
 *    relation rows at 1,000,000 articles took ~67 ms);
 *  - a page walks the public articles newest first and keeps those with the
 *    tag (index probes), stopping after the page.
 *
 * The articles themselves are then read through Payload by id, under the
 * Articles access rules (frontend/src/lib/api/articles.ts).
 */
import type { Payload } from 'payload'

import { poolOf } from '../../src/lib/pool'
import { PUBLIC_SQL } from './access'
import { publicListTotal } from './listTotals'

export type TaggedPage = { ids: number[]; totalDocs: number }

export async function publicArticlesWithTag(
  payload: Payload,
  tagId: number,
  { page, limit }: { page: number; limit: number },
): Promise<TaggedPage> {
  const db = poolOf(payload)
  // `articles_rels` holds no relationship but tags (its only target column is tags_id),
  // so `tags_id = $1` is the tag, whatever the row's path.
  const [totalDocs, pageRows] = await Promise.all([
    publicListTotal(payload, { list: 'tag', id: tagId }),
    db.query<{ id: number }>(
      `select a.id from articles a
        where ${PUBLIC_SQL} and a.id in (select parent_id from articles_rels where tags_id = $1)
        order by a.published_at desc, a.created_at desc, a.id desc
        limit $2 offset $3`,
      [tagId, limit, (page - 1) * limit],
    ),
  ])
  return { ids: pageRows.rows.map((r) => Number(r.id)), totalDocs }
}
