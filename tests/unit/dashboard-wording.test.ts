import { describe, expect, it } from 'vitest'

import { busiest, groupSummary, viewsSentence } from '../../src/plugins/dashboard/admin/wording'

const days = (views: number[]) => views.map((n, i) => ({ label: `Nov ${i + 1}`, views: n }))

describe('dashboard wording', () => {
  it('says no views plainly, without a busiest day that is "none yet"', () => {
    expect(viewsSentence(days([0, 0, 0]), 'the last 30 days', 'the busiest day')).toBe('0 views in the last 30 days.')
  })

  it('names the busiest day, and says "1 view", not "1 views"', () => {
    expect(viewsSentence(days([0, 1, 0]), 'the last 30 days', 'the busiest day')).toBe('1 view in the last 30 days; the busiest day was Nov 2 (1).')
    expect(viewsSentence(days([3, 1419, 2]), 'the last 12 months', 'its busiest day', '“Hello” had ')).toBe(
      '“Hello” had 1,424 views in the last 12 months; its busiest day was Nov 2 (1,419).',
    )
  })

  it('keeps "none yet" where it reads as an answer ("Busiest day for replies: none yet")', () => {
    expect(busiest(days([0, 0]), 'views')).toBe('none yet')
  })

  it('says untagged articles have no tag, not that nothing was published (issue 26)', () => {
    const range = 'the last 30 days'
    expect(groupSummary([], 3, range, 'tag')).toBe('None of the 3 articles published in the last 30 days has a tag.')
    expect(groupSummary([], 1, range, 'category')).toBe('The article published in the last 30 days has no category.')
    expect(groupSummary([], 0, range, 'tag')).toBe('No articles were published in the last 30 days.')
    expect(groupSummary([{ name: 'News', articles: 3 }], 3, range, 'category')).toBe('In the last 30 days, News leads with 3 published articles; 1 shown, most first.')
  })
})
