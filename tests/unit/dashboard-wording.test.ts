import { describe, expect, it } from 'vitest'

import { translator } from '../../src/lib/i18n'
import { busiest, groupSummary, rangeLabel, viewsSentence } from '../../src/plugins/dashboard/admin/wording'

const days = (views: number[]) => views.map((n, i) => ({ label: `Nov ${i + 1}`, views: n }))
const en = translator('en')
const zh = translator('zh-CN')

describe('dashboard wording', () => {
  it('says no views plainly, without a busiest day that is "none yet"', () => {
    expect(viewsSentence(en, 'en', days([0, 0, 0]), 'the last 30 days', 'the busiest day')).toBe('0 views in the last 30 days.')
  })

  it('names the busiest day, and says "1 view", not "1 views"', () => {
    expect(viewsSentence(en, 'en', days([0, 1, 0]), 'the last 30 days', 'the busiest day')).toBe('1 view in the last 30 days; the busiest day was Nov 2 (1).')
    expect(viewsSentence(en, 'en', days([3, 1419, 2]), 'the last 12 months', 'its busiest day', 'Hello')).toBe(
      '“Hello” had 1,424 views in the last 12 months; its busiest day was Nov 2 (1,419).',
    )
  })

  it('keeps "none yet" where it reads as an answer ("Busiest day for replies: none yet")', () => {
    expect(busiest(en, 'en', days([0, 0]), 'views')).toBe('none yet')
    expect(busiest(zh, 'zh-CN', days([0, 0]), 'views')).toBe('暂无')
  })

  it('says untagged articles have no tag, not that nothing was published (issue 26)', () => {
    const range = 'the last 30 days'
    expect(groupSummary(en, [], 3, range, 'tag')).toBe('None of the 3 articles published in the last 30 days has a tag.')
    expect(groupSummary(en, [], 1, range, 'category')).toBe('The article published in the last 30 days has no category.')
    expect(groupSummary(en, [], 0, range, 'tag')).toBe('No articles were published in the last 30 days.')
    expect(groupSummary(en, [{ name: 'News', articles: 3 }], 3, range, 'category')).toBe('In the last 30 days, News leads with 3 published articles; 1 shown, most first.')
  })

  it('says the same in Chinese, from the catalogs', () => {
    const range = rangeLabel(zh, { period: 'day', buckets: 30 })
    expect(range).toBe('最近 30 天')
    expect(rangeLabel(en, { period: 'month', buckets: 12 })).toBe('the last 12 months')
    expect(viewsSentence(zh, 'zh-CN', days([3, 1419, 2]), range, zh('dashboard.busiest', { unit: zh('dashboard.unit.day') }))).toBe('最近 30 天共 1,424 次阅读；阅读最多的日期是 Nov 2 (1,419)。')
    expect(groupSummary(zh, [], 3, range, 'tag')).toBe('最近 30 天发布的 3 篇文章都没有标签。')
  })
})
