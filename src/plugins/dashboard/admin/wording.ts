/**
 * The dashboard's sentences about its series, apart from the charts so they are
 * testable without React. Every word comes from the catalogs (src/lib/i18n)
 * through `t`, in the admin user's language.
 */
import { formatNumber, type Language, type Translate } from '../../../lib/i18n'
import type { DashboardData } from '../stats'

/** "the last 30 days" / "最近 30 天". */
export function rangeLabel(t: Translate, data: Pick<DashboardData, 'period' | 'buckets'>): string {
  return t(`dashboard.range.${data.period}`, { count: data.buckets })
}

function busiestRow<T extends { label: string }>(rows: T[], key: keyof T): T | undefined {
  let best: T | undefined
  for (const row of rows) if (Number(row[key]) > 0 && (!best || Number(row[key]) > Number(best[key]))) best = row
  return best
}

const described = <T>(lang: Language, row: T, key: keyof T) => `${(row as { label: string }).label} (${formatNumber(lang, Number(row[key]))})`

export function busiest<T extends { label: string }>(t: Translate, lang: Language, rows: T[], key: keyof T): string {
  const best = busiestRow(rows, key)
  return best ? described(lang, best, key) : t('dashboard.noneYet')
}

/** "; the busiest day was Nov 24 (12)", or nothing when there is no busiest one (no "was none yet"). */
export function busiestClause<T extends { label: string }>(t: Translate, lang: Language, rows: T[], key: keyof T, subject: string): string {
  const best = busiestRow(rows, key)
  return best ? t('dashboard.busiestClause', { subject, row: described(lang, best, key) }) : ''
}

/**
 * "2,682 views in the last 30 days; the busiest day was Nov 24 (419).", or
 * "0 views in the last 30 days."; with `title`, the sentence about one article.
 */
export function viewsSentence(t: Translate, lang: Language, rows: { label: string; views: number }[], range: string, busiestSubject: string, title?: string): string {
  const total = rows.reduce((sum, row) => sum + Number(row.views), 0)
  const params = { views: t('card.views', { count: total }), range, busiest: busiestClause(t, lang, rows, 'views', busiestSubject) }
  return title === undefined ? t('dashboard.viewsSentence', params) : t('dashboard.articleViewsSentence', { ...params, title })
}

/**
 * The summary of an "articles per tag / category" chart. With no rows it tells
 * apart a period with nothing published from articles that carry no tag (or
 * category): the tag chart used to say nothing was published while the
 * category chart beside it counted three.
 */
export function groupSummary(
  t: Translate,
  rows: { name: string; articles: number }[],
  publishedInRange: number,
  range: string,
  group: 'tag' | 'category',
): string {
  const top = rows[0]
  if (top) return t('dashboard.groupLeads', { range, name: top.name, count: top.articles, shown: rows.length })
  if (publishedInRange <= 0) return t('dashboard.groupNonePublished', { range })
  const groupWord = t(group === 'tag' ? 'dashboard.group.tag' : 'dashboard.group.category')
  if (publishedInRange === 1) return t('dashboard.groupOneLacks', { range, group: groupWord })
  return t('dashboard.groupNoneHas', { count: publishedInRange, range, group: groupWord })
}
