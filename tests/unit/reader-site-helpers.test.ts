/** Small helpers of the reader site (issue 16): reading time, paged URLs, language tags, reply snippets. */
import { describe, expect, it } from 'vitest'

import { withPage, withParams } from '../../frontend/src/lib/paths'
import { canonicalLanguage } from '../../src/fields/language'
import { readingMinutes } from '../../src/lib/readingTime'
import { replySnippet } from '../../src/plugins/notifications/deliverNotification'

describe('readingMinutes', () => {
  const words = (n: number) => `<p>${Array.from({ length: n }, (_, i) => `word${i}`).join(' ')}</p>`

  it('is at least one minute, and about 230 words a minute', () => {
    expect(readingMinutes('')).toBe(1)
    expect(readingMinutes(words(10))).toBe(1)
    expect(readingMinutes(words(2300))).toBe(10)
  })

  it('leaves code blocks out and reads Chinese by characters', () => {
    expect(readingMinutes(`${words(230)}<pre><code>${'x '.repeat(100_000)}</code></pre>`)).toBe(1)
    expect(readingMinutes(`<p>${'好的工程实践往往来自对细节的坚持'.repeat(100)}</p>`)).toBe(5) // 1,500 characters at 300 a minute
  })
})

describe('withParams / withPage', () => {
  it('adds page 2 and later to a path, keeping its query, and leaves page 1 out', () => {
    expect(withPage('/', 1)).toBe('/')
    expect(withPage('/', 2)).toBe('/?page=2')
    expect(withPage('/?sort=replied', 3)).toBe('/?sort=replied&page=3')
    expect(withPage('/tags/x?page=4', 1)).toBe('/tags/x')
  })

  it('sets and removes parameters', () => {
    expect(withParams('/a?page=2&edit=3', { edit: undefined, delete: 9 })).toBe('/a?page=2&delete=9')
  })
})

describe('canonicalLanguage', () => {
  it('accepts BCP 47 tags in their canonical spelling and refuses the rest', () => {
    expect(canonicalLanguage('zh-cn')).toBe('zh-CN')
    expect(canonicalLanguage('en')).toBe('en')
    expect(canonicalLanguage('english please')).toBeNull()
    expect(canonicalLanguage('')).toBeNull()
    expect(canonicalLanguage(42)).toBeNull()
  })
})

describe('replySnippet', () => {
  it('is plain prose from the rendered reply: no Markdown marks, no code, blocks separated by spaces', () => {
    const body = '**Bold** start, a [link](https://example.com).\n\n```ts\nconst secret = 1\n```\n\n- apple\n- banana\n\n> A quote'
    // What renderMarkdown makes of it (the reply's stored html).
    const html = '<p><strong>Bold</strong> start, a <a href="https://example.com">link</a>.</p><pre class="shiki"><code>const secret = 1</code></pre><ul><li>apple</li><li>banana</li></ul><blockquote><p>A quote</p></blockquote>'
    expect(replySnippet({ body, html })).toBe('Bold start, a link. apple banana A quote')
  })
})

describe('articleReadingMinutes', () => {
  it('is computed again when the body changes, even at the same update time', async () => {
    const { articleReadingMinutes } = await import('../../src/lib/readingTime')
    const body = (n: number) => `<p>${'word '.repeat(n)}</p>`
    const article = { id: 424242, updatedAt: '2026-11-24T00:00:00.000Z', html: body(230) }
    expect(articleReadingMinutes(article)).toBe(1)
    expect(articleReadingMinutes(article)).toBe(1)
    expect(articleReadingMinutes({ ...article, html: body(2300) })).toBe(10)
  })
})
