/**
 * The one sanitizer and the Markdown renderer, on their own: what they keep,
 * what they drop, and the whole attack corpus through every pure entry point.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { XSS_VECTORS } from '../fixtures/xss-vectors'
import { scriptableParts } from '../fixtures/scriptableParts'

process.env.PAYLOAD_SECRET ??= 'unit-test-secret-not-for-production'
process.env.DATA_DIR ??= '/tmp/inkwell-unit'
// Vitest sets BASE_URL to Vite's '/', which is not a site address.
process.env.BASE_URL = 'http://localhost:3000'

const { sanitize } = await import('../../src/lib/sanitize')
const { renderMarkdown } = await import('../../src/lib/markdown')
const { buildEnv, ConfigError } = await import('../../src/lib/env')

type EntryPoint = [name: string, render: (input: string) => Promise<string> | string]
const ENTRY_POINTS: EntryPoint[] = [
  ['raw sanitize', sanitize],
  ['markdown renderer (article and reply bodies)', renderMarkdown],
]

describe('the attack corpus', () => {
  it('has at least 150 vectors in every category the issue names', () => {
    expect(XSS_VECTORS.length).toBeGreaterThanOrEqual(150)
    const categories = new Set(XSS_VECTORS.map((v) => v.category))
    for (const c of ['event-handler', 'script-url', 'svg-mathml', 'mutation', 'dangling', 'css', 'markdown', 'code']) {
      expect(categories).toContain(c)
    }
  })

  describe.each(ENTRY_POINTS)('through the %s', (_name, render) => {
    let outputs: { id: string; html: string }[]
    beforeAll(async () => {
      outputs = await Promise.all(XSS_VECTORS.map(async (v) => ({ id: v.id, html: await render(v.payload) })))
    })

    it('leaves no element or attribute that can run script', () => {
      const findings = outputs.flatMap(({ id, html }) => scriptableParts(html).map((f) => `${id}: ${f}`))
      expect(findings).toEqual([])
    })

    it('is idempotent: sanitizing the output again changes nothing', () => {
      const changed = outputs.filter(({ html }) => sanitize(html) !== html).map(({ id }) => id)
      expect(changed).toEqual([])
    })
  })
})

describe('sanitize keeps what articles need', () => {
  it('keeps structure, tables, images and safe links', () => {
    const html =
      '<h2 id="intro">Intro</h2><p><strong>b</strong> <em>i</em> <a href="/articles/1/x">in</a> <a href="mailto:a@b.test">mail</a></p>' +
      '<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table><img src="/api/media/file/a.png" alt="a">'
    expect(sanitize(html)).toBe(html)
  })

  it('gives external links the configured rel and a new tab, and ignores the author’s rel and target', () => {
    expect(sanitize('<a href="https://example.com" rel="opener" target="_self">x</a>')).toBe(
      '<a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">x</a>',
    )
    expect(sanitize('<a href="/local" target="_blank">x</a>')).toBe('<a href="/local">x</a>')
  })

  it.each(['https:\\\\evil.example/', 'https:evil.example/', 'HTTPS://evil.example/', 'ht\ttps:evil.example/', ' https:/evil.example/'])(
    'treats %j as the external link a browser reads (issue 27 item 7)',
    (href) => {
      const out = sanitize(`<a href="${href}" target="_self">x</a>`)
      expect(out).toContain('rel="noopener noreferrer nofollow"')
      expect(out).toContain('target="_blank"')
      expect(sanitize(out)).toBe(out)
    },
  )

  it.each(['\\\\evil.example/x', '/\\evil.example/x', '//evil.example/x'])('drops %j, another host without a scheme', (href) => {
    expect(sanitize(`<a href="${href}">x</a>`)).toBe('<a>x</a>')
  })

  it('keeps only the highlighter’s colour variables in style', () => {
    expect(sanitize('<span style="--shiki-light:#D73A49;--shiki-dark:#F97583;color:red;background:url(x)">k</span>')).toBe(
      '<span style="--shiki-light:#D73A49;--shiki-dark:#F97583">k</span>',
    )
  })

  it('drops heading ids that are not plain anchors', () => {
    expect(sanitize('<h2 id="a b">x</h2><h3 id="ok-1">y</h3>')).toBe('<h2>x</h2><h3 id="ok-1">y</h3>')
  })
})

describe('EXTERNAL_LINK_REL', () => {
  const base = { DATA_DIR: '/tmp/inkwell-env-test', PAYLOAD_SECRET: 'a-long-enough-test-secret' }
  it('defaults to noopener noreferrer nofollow and accepts known tokens', () => {
    expect(buildEnv(base as never).externalLinkRel).toBe('noopener noreferrer nofollow')
    expect(buildEnv({ ...base, EXTERNAL_LINK_REL: ' noopener   UGC ' } as never).externalLinkRel).toBe('noopener ugc')
  })
  it('refuses unknown tokens, naming the variable', () => {
    expect(() => buildEnv({ ...base, EXTERNAL_LINK_REL: 'noopener evil' } as never)).toThrow(ConfigError)
    expect(() => buildEnv({ ...base, EXTERNAL_LINK_REL: 'noopener evil' } as never)).toThrow(/EXTERNAL_LINK_REL/)
  })
})

describe('renderMarkdown', () => {
  it('renders GFM with heading anchors and shiki highlighting in both themes', async () => {
    const html = await renderMarkdown('## Setup\n\n```ts\nconst x: number = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~')
    expect(html).toContain('<h2 id="setup">Setup</h2>')
    expect(html).toMatch(/<pre class="shiki shiki-themes github-light github-dark language-ts"/)
    expect(html).toMatch(/<span style="--shiki-light:#[0-9A-Fa-f]+;--shiki-dark:#[0-9A-Fa-f]+">const<\/span>/)
    expect(html).toContain('<table>')
    expect(html).toContain('<s>old</s>')
  })

  it('escapes code in unknown languages and keeps the label', async () => {
    const html = await renderMarkdown('```nosuchlang\n<b>x</b>\n```')
    expect(html).toBe('<pre class="shiki language-nosuchlang"><code class="language-nosuchlang">&lt;b&gt;x&lt;/b&gt;</code></pre>\n')
  })
})

/** The policy the composition gives the content plugin for BASE_URL http://localhost:3000. */
const links = { externalLinkRel: 'noopener noreferrer nofollow', siteOrigin: 'http://localhost:3000' }

describe('images in replies (issue 9, item 16)', () => {
  it('keeps images served by the site itself', async () => {
    for (const src of ['/api/media/file/cat.png', 'http://localhost:3000/api/media/file/cat.png']) {
      expect(await renderMarkdown(`![cat](${src})`, { images: 'site', links })).toContain(`<img src="${src}" alt="cat">`)
    }
  })

  it('turns an image from any other host into a plain link that loads nothing', async () => {
    for (const src of ['https://tracker.example/pixel.gif', '//tracker.example/p.gif', 'http://localhost:3001/x.png', 'https://localhost:3000.evil.test/x.png']) {
      const html = await renderMarkdown(`![who reads this?](${src})`, { images: 'site', links })
      expect(html, src).not.toContain('<img')
      expect(sanitize(html, { images: 'site', links })).toBe(html)
    }
    const html = await renderMarkdown('![who reads this?](https://tracker.example/pixel.gif)', { images: 'site' })
    expect(html).toContain('<a href="https://tracker.example/pixel.gif" rel="noopener noreferrer nofollow" target="_blank">who reads this?</a>')
    expect(sanitize('<img src="https://tracker.example/p.gif" onerror="alert(1)">', { images: 'site' })).not.toMatch(/<img|onerror/)
  })

  it('leaves authors\' third-party images in articles alone', async () => {
    expect(await renderMarkdown('![chart](https://images.example/chart.png)')).toContain('<img src="https://images.example/chart.png"')
  })

  it('keeps the whole corpus harmless under the reply policy', async () => {
    for (const v of XSS_VECTORS) expect(scriptableParts(await renderMarkdown(v.payload, { images: 'site' })), v.id).toEqual([])
  })
})
