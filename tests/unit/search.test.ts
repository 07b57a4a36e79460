/** The pure parts of search: query cleaning, text extraction, segmentation and safe highlighting. */
import { describe, expect, it } from 'vitest'

import { highlightHtml, htmlToText, MAX_QUERY_LENGTH, parseQuery, searchableText, segmentCjk, SearchQueryError } from '../../src/plugins/search/searchArticles'

describe('parseQuery', () => {
  it('checks the length before anything else, and cleans control, private-use and unpaired characters', () => {
    expect(() => parseQuery('a'.repeat(MAX_QUERY_LENGTH + 1))).toThrow(SearchQueryError)
    expect(parseQuery('a\u0000b\u001b[31m\uE000c\ud800')).toMatchObject({ text: 'a b [31m c' })
    expect(parseQuery(['first', 'second']).text).toBe('first')
    expect(parseQuery({ $gt: 1 }).text).toBe('')
  })

  it('treats the last plain word as a prefix, but not in quotes, after -, after OR, or when short', () => {
    expect(parseQuery('pg noti')).toEqual({ text: 'pg noti', websearch: 'pg', prefix: 'noti' })
    expect(parseQuery('pg_noti').prefix).toBe('pg_noti')
    expect(parseQuery('"pg noti"').prefix).toBeUndefined()
    expect(parseQuery('pg -noti').prefix).toBeUndefined()
    expect(parseQuery('pg OR noti').prefix).toBeUndefined()
    expect(parseQuery('pg no').prefix).toBeUndefined()
    expect(parseQuery('缓存策略').prefix).toBeUndefined()
  })
})

describe('text for the index', () => {
  it('keeps words of adjacent blocks apart and decodes entities once', () => {
    expect(htmlToText('<p>one</p><p>two<br>three</p><pre><code>a &amp;lt; b &#x3C;T&#62;</code></pre>')).toBe('one two three a &lt; b <T> ')
  })

  it('segments Chinese runs into words and spaces tag-like text so the parser keeps it', () => {
    // ICU's dictionary: words it knows stay whole, others fall apart into characters, the same way in text and query.
    expect(segmentCjk('用TypeScript深入理解缓存策略').trim().split(/\s+/)).toEqual(['用', 'TypeScript', '深入', '理解', '缓', '存', '策略'])
    expect(searchableText('<p>Page&lt;T&gt; and &lt;script&gt;</p>')).toBe('Page< T> and < script>')
  })
})

describe('highlightHtml', () => {
  it('escapes everything and adds only <mark>, balanced, without segmentation spaces', () => {
    expect(highlightHtml('< script>\uE000x\uE001</mark><img onerror=1>')).toBe('&lt;script&gt;<mark>x</mark>&lt;/mark&gt;&lt;img onerror=1&gt;')
    expect(highlightHtml('\uE000open')).toBe('<mark>open</mark>')
    expect(highlightHtml('\uE001stray')).toBe('stray')
    expect(highlightHtml('构建 一个 \uE000博客\uE001 and \uE000more\uE001 \uE000words\uE001')).toBe('构建一个<mark>博客</mark> and <mark>more</mark> <mark>words</mark>')
  })
})
