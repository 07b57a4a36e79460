/** The automatic excerpt: plain prose from rendered HTML, cut at a word. */
import { describe, expect, it } from 'vitest'

import { EXCERPT_MAX_LENGTH, excerptOf, proseOf, truncateAtWord } from '../../src/lib/excerpt'


describe('proseOf', () => {
  it('turns block boundaries into spaces and keeps inline elements joined', () => {
    const html =
      '<h2>Second heading</h2><p>Some <strong>bold</strong>ly and a list:</p><ul><li>apple</li><li>banana</li></ul>' +
      '<blockquote><p>A quote</p></blockquote><table><tr><td>a</td><td>b</td></tr></table>line<br>break'
    expect(proseOf(html)).toBe('Second heading Some boldly and a list: apple banana A quote a b line break')
  })

  it('leaves code blocks out but keeps inline code', () => {
    const html = '<p>Before</p><pre class="shiki"><code><span class="line">const x = 1</span></code></pre><p>Run <code>npm test</code> after.</p>'
    expect(proseOf(html)).toBe('Before Run npm test after.')
  })

  it('decodes entities exactly once, so text that shows markup stays text', () => {
    // The author wrote "&lt;script&gt;" (shown as text) and "a &amp;lt; b" (shown as "a &lt; b").
    expect(proseOf('<p>Use &lt;script&gt; tags and a &amp;lt; b</p>')).toBe('Use <script> tags and a &lt; b')
  })

  it('walks deeply nested HTML without recursion', () => {
    const nested = '<span>'.repeat(20_000) + 'deep' + '</span>'.repeat(20_000)
    expect(proseOf(nested)).toBe('deep')
  })

})

describe('truncateAtWord', () => {
  it('keeps short text whole', () => {
    expect(truncateAtWord('A short text.')).toBe('A short text.')
  })

  it('cuts at the last whole word within the limit, with an ellipsis and no trailing punctuation', () => {
    const text = 'alpha beta, gamma delta '.repeat(20)
    const cut = truncateAtWord(text, 40)
    expect(cut.length).toBeLessThanOrEqual(40)
    expect(cut).toBe('alpha beta, gamma delta alpha beta…')
  })

  it('cuts Chinese text at a word and never inside a surrogate pair', () => {
    const chinese = '好的工程实践往往来自对细节的坚持：清晰的命名、可靠的测试，以及对用户体验的尊重。'.repeat(10)
    const cut = truncateAtWord(chinese, 30)
    expect(cut.length).toBeLessThanOrEqual(30)
    expect(cut.endsWith('…')).toBe(true)
    expect(chinese.startsWith(cut.slice(0, -1))).toBe(true)
    const emoji = '😀'.repeat(100)
    expect(truncateAtWord(emoji, 11)).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/)
  })

  it('cuts inside a word only when one word is longer than half the excerpt', () => {
    const cut = truncateAtWord(`See https://example.com/${'x'.repeat(300)}`, 50)
    expect(cut.length).toBe(50)
  })
})

describe('excerptOf', () => {
  it('finds the prose after a long code block, and reads only the opening of a long body', () => {
    const code = `<pre><code>${'x = 1\n'.repeat(50_000)}</code></pre>`
    expect(excerptOf(`${code}<p>The prose after the code.</p>`)).toBe('The prose after the code.')
    const long = '<p>word </p>'.repeat(200_000)
    expect(excerptOf(long)).toBe(`${'word '.repeat(31)}word…`)
    expect(excerptOf(long).length).toBeLessThanOrEqual(EXCERPT_MAX_LENGTH)
  })

  it('is empty for an empty body', () => {
    expect(excerptOf('')).toBe('')
    expect(excerptOf(null)).toBe('')
  })
})

describe('excerptOf the HTML the renderers make', () => {
  it('is plain prose of at most 160 characters, without code', () => {
    // The shape of renderMarkdown's output (the real renderers are covered through Payload in tests/integration/feeds.test.ts).
    const html = [
      '<h1 id="first-heading">First heading</h1>',
      '<p>Intro paragraph with <em>emphasis</em>.</p>',
      '<pre class="shiki shiki-themes github-light github-dark language-js" style="--shiki-light:#24292e"><code class="language-js">',
      '<span class="line"><span style="--shiki-light:#005cc5">console</span>.log(&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;)</span></code></pre>',
      '<h2 id="second-heading">Second heading</h2>',
      '<p>Some <strong>bold</strong> and a list:</p>',
      '<ul>\n<li>apple</li>\n<li>banana</li>\n</ul>',
      '<blockquote>\n<p>A quote</p>\n</blockquote>',
      '<p>More text follows here so that the excerpt has to be cut somewhere after a word boundary, not in the middle of anything.</p>',
    ].join('\n')
    const excerpt = excerptOf(html)
    expect(excerpt).toMatch(/^First heading Intro paragraph with emphasis\. Second heading Some bold and a list: apple banana A quote More text/)
    expect(excerpt).not.toMatch(/console|alert/)
    expect(excerpt.length).toBeLessThanOrEqual(160)
    expect(excerpt.endsWith('…')).toBe(true)
    expect(excerpt.slice(0, -1)).toMatch(/\w$/)
  })
})
