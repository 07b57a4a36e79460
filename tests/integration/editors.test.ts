/**
 * Both editors' output as stored on articles: Markdown and rich text rendered
 * at save time (highlighted code, images from Media, tables, anchors), format
 * switches that convert the body, the default format, the preview endpoint
 * and the upload rules images rely on.
 */
import { createLocalReq, type Payload } from 'payload'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { previewEndpoint } from '../../collections/Articles/endpoints/preview'
import type { Article, Media, User } from '../../src/payload-types'
import { codeBlock, editorState, heading, link, list, paragraph, quote, table, text, upload } from '../fixtures/lexical'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'

let t: TestPayload
let payload: Payload
let cast: Awaited<ReturnType<typeof createCast>>
let image: Media

async function png(): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 6, channels: 3, background: '#3366cc' } }).png().toBuffer()
}

beforeAll(async () => {
  t = await createTestPayload()
  payload = t.payload
  cast = await createCast(payload)
  const data = await png()
  image = await payload.create({
    collection: 'media',
    data: { alt: 'A blue square' },
    file: { data, mimetype: 'image/png', name: 'blue.png', size: data.length },
    user: cast.author,
    overrideAccess: false,
  })
})
afterAll(() => t?.destroy())

const asAuthor = (user: User = cast.author) => ({ user, overrideAccess: false }) as const

function createArticle(data: Partial<Article>, user: User = cast.author) {
  return payload.create({ collection: 'articles', data: { title: 'Test article', ...data } as never, ...asAuthor(user) })
}

describe('Markdown articles', () => {
  it('store highlighted, sanitized HTML with anchors, tables, images and external link rel', async () => {
    const article = await createArticle({
      format: 'markdown',
      markdown: [
        '## Getting started',
        '',
        '```python',
        'def greet(name):',
        '    return f"Hello {name}"',
        '```',
        '',
        `![A blue square](${image.url})`,
        '',
        '| Step | Done |',
        '| --- | --- |',
        '| one | yes |',
        '',
        'See [the docs](https://example.com/docs) or [home](/).',
        '',
        '<script>alert(1)</script><img src=x onerror=alert(1)>',
      ].join('\n'),
    })
    expect(article.html).toContain('<h2 id="getting-started">Getting started</h2>')
    expect(article.html).toMatch(/<pre class="shiki shiki-themes github-light github-dark language-python" style="--shiki-light:#[0-9a-f]+;/i)
    expect(article.html).toContain(`<img src="${image.url}" alt="A blue square">`)
    expect(article.html).toContain('<table>')
    expect(article.html).toContain('<a href="https://example.com/docs" rel="noopener noreferrer nofollow" target="_blank">the docs</a>')
    expect(article.html).toContain('<a href="/">home</a>')
    expect(article.html).not.toMatch(/<script|onerror/)
    expect(article.excerpt).toContain('Getting started')
  })

  it('store long highlighted code, though its HTML is many times the length of the source', async () => {
    const code = Array.from({ length: 1500 }, (_, i) => `const value${i} = compute(${i}, "text") // line ${i}`).join('\n')
    const article = await createArticle({ format: 'markdown', markdown: '```ts\n' + code + '\n```' })
    expect(article.html!.length).toBeGreaterThan(100_000)
    expect(article.html).toContain('line 1499')
  })
})

describe('rich-text (HTML) articles', () => {
  it('convert headings, lists, links, quotes, code blocks with their language, Media images and tables', async () => {
    const article = await createArticle({
      format: 'html',
      content: editorState(
        heading('h2', 'Overview'),
        paragraph(text('Read '), link('https://example.com', 'this'), text(' first.')),
        list(['one', 'two']),
        quote('Quoted words'),
        codeBlock('const answer: number = 42', 'typescript'),
        upload(image.id, 'Blue'),
        table([
          ['Name', 'Value'],
          ['a', '1'],
        ]),
      ) as never,
    })
    const html = article.html!
    expect(html).toContain('<h2>Overview</h2>')
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">this</a>')
    expect(html).toMatch(/<ul[^>]*><li[^>]*>one<\/li><li[^>]*>two<\/li><\/ul>/)
    expect(html).toContain('<blockquote>Quoted words</blockquote>')
    expect(html).toMatch(/<pre class="shiki shiki-themes github-light github-dark language-typescript"[^>]*><code class="language-typescript"><span class="line"><span style="--shiki-light:/)
    expect(html).toContain(`<img src="/api/media/file/blue.png" alt="Blue" width="8" height="6" loading="lazy">`)
    expect(html).toContain('<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td>a</td><td>1</td></tr></tbody></table>')
  })
})

describe('switching format', () => {
  it('converts Markdown into rich text on save, keeping the Markdown', async () => {
    const source = '## Part one\n\nSome **bold** words.\n\n- a\n- b'
    const article = await createArticle({ format: 'markdown', markdown: source })
    const switched = await payload.update({ collection: 'articles', id: article.id, data: { format: 'html' }, ...asAuthor() })
    expect(switched.markdown).toBe(source)
    expect(JSON.stringify(switched.content)).toContain('Part one')
    expect(switched.html).toContain('<h2>Part one</h2>')
    expect(switched.html).toContain('<strong>bold</strong>')
    expect(switched.html).toMatch(/<li[^>]*>a<\/li>/)
  })

  it('converts rich text into Markdown on save: headings, code with its language, images and tables survive', async () => {
    const article = await createArticle({
      format: 'html',
      content: editorState(
        heading('h2', 'Title here'),
        paragraph(text('Plain '), text('strong', 1)),
        codeBlock('print("hi")', 'python'),
        upload(image.id, 'Blue'),
        table([
          ['H1', 'H2'],
          ['c1', 'c2'],
        ]),
      ) as never,
    })
    const switched = await payload.update({ collection: 'articles', id: article.id, data: { format: 'markdown' }, ...asAuthor() })
    expect(switched.markdown).toContain('## Title here')
    expect(switched.markdown).toContain('**strong**')
    expect(switched.markdown).toContain('```python\nprint("hi")\n```')
    expect(switched.markdown).toContain('![Blue](/api/media/file/blue.png)')
    expect(switched.markdown).toMatch(/\| H1 \| H2 \|/)
    expect(switched.html).toContain('language-python')
    expect(switched.content).toEqual(article.content)
  })
})

describe('default format', () => {
  it('comes from the site settings, then from the author’s last article', async () => {
    const fresh = await payload.create({ collection: 'users', data: { email: 'fresh@example.test', password: 'correct horse battery staple', name: 'Fresh' } as never })
    const author = await payload.update({ collection: 'users', id: fresh.id, data: { roles: cast.author.roles } as never, depth: 0 })
    await payload.updateGlobal({ slug: 'site-settings', data: { defaultEditorFormat: 'html' } })
    const first = await createArticle({ content: editorState(paragraph(text('x'))) as never }, author as User)
    expect(first.format).toBe('html')
    await payload.updateGlobal({ slug: 'site-settings', data: { defaultEditorFormat: 'markdown' } })
    const second = await createArticle({}, author as User)
    expect(second.format).toBe('html')
    await payload.update({ collection: 'articles', id: second.id, data: { format: 'markdown', markdown: 'now markdown' }, ...asAuthor(author as User) })
    const third = await createArticle({}, author as User)
    expect(third.format).toBe('markdown')
  })
})

describe('POST /api/articles/preview', () => {
  async function preview(user: User | undefined, body: unknown) {
    const req = await createLocalReq({ user: user as never }, payload)
    req.json = async () => body
    return previewEndpoint.handler(req)
  }

  it('renders Markdown exactly as a saved article', async () => {
    const markdown = '# Hi\n\n```js\nlet x = 1\n```\n\n<img src=x onerror=alert(1)>'
    const response = await preview(cast.author, { markdown })
    expect(response.status).toBe(200)
    const { html } = (await response.json()) as { html: string }
    const saved = await createArticle({ format: 'markdown', markdown })
    expect(html).toBe(saved.html)
  })

  it('refuses readers and anonymous visitors, and names a bad field', async () => {
    expect((await preview(undefined, { markdown: 'x' })).status).toBe(403)
    expect((await preview(cast.reader, { markdown: 'x' })).status).toBe(403)
    const bad = await preview(cast.author, { markdown: 42 })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await bad.json())).toContain('markdown')
  })
})

describe('uploads that articles embed', () => {
  it('refuses SVG (it can carry script) and HTML disguised as an image', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>')
    await expect(
      payload.create({ collection: 'media', data: {}, file: { data: svg, mimetype: 'image/svg+xml', name: 'x.svg', size: svg.length }, ...asAuthor() }),
    ).rejects.toThrow()
    const html = Buffer.from('<!doctype html><script>alert(1)</script>')
    await expect(
      payload.create({ collection: 'media', data: {}, file: { data: html, mimetype: 'image/png', name: 'x.png', size: html.length }, ...asAuthor() }),
    ).rejects.toThrow()
  })
})
