/** The dashboard's sentences about its series, apart from the charts so they are testable without React. */
import { counted } from '../../../lib/counted'

function busiestRow<T extends { label: string }>(rows: T[], key: keyof T): T | undefined {
  let best: T | undefined
  for (const row of rows) if (Number(row[key]) > 0 && (!best || Number(row[key]) > Number(best[key]))) best = row
  return best
}

const described = <T>(row: T, key: keyof T) => `${(row as { label: string }).label} (${Number(row[key]).toLocaleString('en')})`

export function busiest<T extends { label: string }>(rows: T[], key: keyof T): string {
  const best = busiestRow(rows, key)
  return best ? described(best, key) : 'none yet'
}

/** "; the busiest day was Nov 24 (12)", or nothing when there is no busiest one (no "was none yet"). */
export function busiestClause<T extends { label: string }>(rows: T[], key: keyof T, subject: string): string {
  const best = busiestRow(rows, key)
  return best ? `; ${subject} was ${described(best, key)}` : ''
}

/** "2,682 views in the last 30 days; the busiest day was Nov 24 (419).", or "0 views in the last 30 days." */
export function viewsSentence(rows: { label: string; views: number }[], range: string, busiestSubject: string, prefix = ''): string {
  const total = rows.reduce((sum, row) => sum + Number(row.views), 0)
  return `${prefix}${counted(total, 'view', 'views')} in ${range}${busiestClause(rows, 'views', busiestSubject)}.`
}

/**
 * The summary of an "articles per tag / category" chart. With no rows it tells
 * apart a period with nothing published from articles that carry no tag (or
 * category): the tag chart used to say nothing was published while the
 * category chart beside it counted three.
 */
export function groupSummary(
  rows: { name: string; articles: number }[],
  publishedInRange: number,
  range: string,
  group: 'tag' | 'category',
): string {
  const top = rows[0]
  if (top) return `In ${range}, ${top.name} leads with ${top.articles.toLocaleString('en')} published articles; ${rows.length} shown, most first.`
  if (publishedInRange <= 0) return `No articles were published in ${range}.`
  if (publishedInRange === 1) return `The article published in ${range} has no ${group}.`
  return `None of the ${publishedInRange.toLocaleString('en')} articles published in ${range} has a ${group}.`
}
