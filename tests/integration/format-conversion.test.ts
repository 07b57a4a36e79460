/**
 * Switching an article between Markdown and rich text converts its body with
 * Payload's own converters, and every construct survives both ways: headings,
 * lists, links, images (upload nodes when they are the site's media), tables,
 * quotes and code blocks with their language. Each construct is switched
 * over REST (PATCH /api/articles/:id {"format": …}, what the admin's save
 * does) and back through the Local API, and must come back as it was.
 */
import type { Payload } from 'payload'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { Article, Media, User } from '../../src/payload-types'
import { codeBlock, editorState, heading, link, list, paragraph, quote, table, text, upload } from '../fixtures/lexical'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { createCast, PASSWORD } from '../helpers/users'

let t: TestPayload
let payload: Payload
let author: User
let image: Media
let rest: (id: number, format: 'markdown' | 'html') => Promise<{ status: number; doc: Article; body: string }>

beforeAll(async () => {
  t = await createTestPayload()
  payload = t.payload
  author = (await createCast(payload)).author
  const data = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#3366cc' } }).png().toBuffer()
  image = await payload.create({
    collection: 'media',
    data: { alt: 'A blue square' },
    file: { data, mimetype: 'image/png', name: 'blue.png', size: data.length },
    user: author,
    overrideAccess: false,
  })
  const { token } = await payload.login({ collection: 'users', data: { email: author.email, password: PASSWORD } })
  const browser = new Browser(payload, t.databaseName)
  rest = async (id, format) => {
    const reply = await browser.request(`/api/articles/${id}`, { method: 'PATCH', json: { format }, headers: { authorization: `JWT ${token}` } })
    const body = await reply.text()
    return { status: reply.status, doc: reply.status === 200 ? JSON.parse(body).doc : undefined, body }
  }
})
afterAll(() => t?.destroy())

const asAuthor = () => ({ user: author, overrideAccess: false }) as const

type Node = { type?: string; tag?: string; listType?: string; text?: string; children?: Node[]; fields?: Record<string, unknown>; value?: unknown; relationTo?: string; headerState?: number }

/** The parts of a rich-text state a reader sees, without ids, versions and formatting defaults. */
function shape(nodes: Node[] | undefined): unknown[] {
  return (nodes ?? []).map((node) => {
    switch (node.type) {
      case 'text':
        return node.text
      case 'heading':
        return { [node.tag!]: shape(node.children) }
      case 'list':
        return { [node.listType!]: shape(node.children) }
      case 'link':
        return { link: (node.fields as { url: string }).url, text: shape(node.children) }
      case 'upload': {
        const value = node.value as number | { id: number }
        return { upload: typeof value === 'object' ? value.id : value, alt: node.fields?.alt }
      }
      case 'block':
        return { code: node.fields?.code, language: node.fields?.language }
      case 'tablecell':
        return { [node.headerState ? 'th' : 'td']: shape(node.children).flat() }
      default:
        return { [node.type!]: shape(node.children) }
    }
  })
}

const contentShape = (doc: Article) => shape((doc.content as { root: Node } | null)?.root.children)

async function markdownArticle(markdown: string): Promise<Article> {
  return payload.create({ collection: 'articles', data: { title: 'Markdown article', format: 'markdown', markdown } as never, ...asAuthor() })
}

async function richTextArticle(content: ReturnType<typeof editorState>): Promise<Article> {
  return payload.create({ collection: 'articles', data: { title: 'Rich-text article', format: 'html', content } as never, ...asAuthor() })
}

/**
 * Markdown → rich text over REST, then back to Markdown through the Local API:
 * the rich text has the expected shape and the Markdown comes back unchanged.
 */
async function roundTripFromMarkdown(markdown: string, expected: unknown[]) {
  const article = await markdownArticle(markdown)
  const toRichText = await rest(article.id, 'html')
  expect(toRichText.status, toRichText.body).toBe(200)
  expect(contentShape(toRichText.doc)).toEqual(expected)
  const back = await payload.update({ collection: 'articles', id: article.id, data: { format: 'markdown' }, ...asAuthor() })
  expect(back.markdown!.trim()).toBe(markdown.trim())
  return toRichText.doc
}

/**
 * Rich text → Markdown through the Local API, then back to rich text over
 * REST: the Markdown is as expected and the rich text comes back with the same shape.
 */
async function roundTripFromRichText(content: ReturnType<typeof editorState>, expectedMarkdown: string) {
  const article = await richTextArticle(content)
  const original = contentShape(article)
  const toMarkdown = await payload.update({ collection: 'articles', id: article.id, data: { format: 'markdown' }, ...asAuthor() })
  expect(toMarkdown.markdown!.trim()).toBe(expectedMarkdown)
  const back = await rest(article.id, 'html')
  expect(back.status, back.body).toBe(200)
  expect(contentShape(back.doc)).toEqual(original)
  return toMarkdown
}

describe('headings', () => {
  it('round-trip both ways', async () => {
    await roundTripFromMarkdown('## Part one\n\nText.\n\n### Part two', [{ h2: ['Part one'] }, { paragraph: ['Text.'] }, { h3: ['Part two'] }])
    await roundTripFromRichText(editorState(heading('h2', 'Overview'), heading('h3', 'Details')), '## Overview\n\n### Details')
  })
})

describe('lists', () => {
  it('round-trip both ways, bulleted and numbered', async () => {
    await roundTripFromMarkdown('- apple\n- banana\n\n1. first\n2. second', [
      { bullet: [{ listitem: ['apple'] }, { listitem: ['banana'] }] },
      { number: [{ listitem: ['first'] }, { listitem: ['second'] }] },
    ])
    await roundTripFromRichText(editorState(list(['one', 'two']), list(['x', 'y'], 'number')), '- one\n- two\n\n1. x\n2. y')
  })
})

describe('links', () => {
  it('round-trip both ways', async () => {
    await roundTripFromMarkdown('See [the docs](https://example.com/docs) first.', [
      { paragraph: ['See ', { link: 'https://example.com/docs', text: ['the docs'] }, ' first.'] },
    ])
    await roundTripFromRichText(editorState(paragraph(text('Read '), link('https://example.com', 'this'), text(' first.'))), 'Read [this](https://example.com) first.')
  })
})

describe('images', () => {
  it('of the site’s media become upload nodes keeping their alt text, and come back as images', async () => {
    const doc = await roundTripFromMarkdown('Before.\n\n![A square](/api/media/file/blue.png)\n\nAfter.', [
      { paragraph: ['Before.'] },
      { upload: image.id, alt: 'A square' },
      { paragraph: ['After.'] },
    ])
    expect(doc.html).toContain('<img src="/api/media/file/blue.png" alt="A square"')
    expect(doc.html).not.toContain('![')
    await roundTripFromRichText(editorState(upload(image.id, 'Blue')), '![Blue](/api/media/file/blue.png)')
  })

  it('by full URL, or inside a line of text, become upload nodes too', async () => {
    expect(image.url).toBe(`${payload.config.serverURL}/api/media/file/blue.png`)
    const article = await markdownArticle(`Look: ![inline](${image.url}) here.`)
    const switched = await rest(article.id, 'html')
    expect(switched.status, switched.body).toBe(200)
    expect(contentShape(switched.doc)).toEqual([{ paragraph: ['Look: '] }, { upload: image.id, alt: 'inline' }, { paragraph: [' here.'] }])
  })

  it('on consecutive lines (a paste then a drop) each become an upload node (issue 26, item 4)', async () => {
    const article = await markdownArticle('![First](/api/media/file/blue.png)\n![Second](/api/media/file/blue.png)\n')
    const switched = await rest(article.id, 'html')
    expect(switched.status, switched.body).toBe(200)
    expect(contentShape(switched.doc)).toEqual([
      { upload: image.id, alt: 'First' },
      { upload: image.id, alt: 'Second' },
    ])
    expect(switched.doc.html).not.toContain('![')
  })

  it('without their own alt text use the media’s alt text in Markdown', async () => {
    await roundTripFromRichText(editorState(upload(image.id)), '![A blue square](/api/media/file/blue.png)')
  })
})

describe('tables', () => {
  it('round-trip both ways with a header row, cells without padding', async () => {
    await roundTripFromMarkdown('| Name | Value |\n| --- | --- |\n| a | 1 |', [
      {
        table: [
          { tablerow: [{ th: [{ paragraph: ['Name'] }] }, { th: [{ paragraph: ['Value'] }] }] },
          { tablerow: [{ td: [{ paragraph: ['a'] }] }, { td: [{ paragraph: ['1'] }] }] },
        ],
      },
    ])
    await roundTripFromRichText(
      editorState(
        table([
          ['H1', 'H2'],
          ['c1', 'c2'],
        ]),
      ),
      '| H1 | H2 |\n| --- | --- |\n| c1 | c2 |',
    )
  })
})

describe('quotes', () => {
  it('round-trip both ways', async () => {
    await roundTripFromMarkdown('> Quoted words', [{ quote: ['Quoted words'] }])
    await roundTripFromRichText(editorState(quote('Said once')), '> Said once')
  })
})

describe('code blocks', () => {
  it('with a language round-trip both ways and are highlighted (the reported 400)', async () => {
    const doc = await roundTripFromMarkdown('Intro.\n\n```python\ndef greet():\n    return "hi"\n```', [
      { paragraph: ['Intro.'] },
      { code: 'def greet():\n    return "hi"', language: 'python' },
    ])
    expect(doc.html).toMatch(/<pre class="shiki shiki-themes github-light github-dark language-python"/)
    await roundTripFromRichText(editorState(codeBlock('const answer: number = 42', 'typescript')), '```typescript\nconst answer: number = 42\n```')
  })

  it('without a language, in any language shiki knows, and one line long, stay fenced blocks', async () => {
    await roundTripFromMarkdown('```\nplain text\n```\n\n```bash\nls -la\n```\n\n```elixir\nIO.puts("hi")\n```', [
      { code: 'plain text', language: '' },
      { code: 'ls -la', language: 'bash' },
      { code: 'IO.puts("hi")', language: 'elixir' },
    ])
    await roundTripFromRichText(editorState(codeBlock('one line', '')), '```\none line\n```')
  })

  it('written with ~~~ or under a language alias convert, the language kept as written', async () => {
    const article = await markdownArticle('~~~js\nlet x = 1\n~~~\n\n```ts\nconst y = 2\n```')
    const switched = await payload.update({ collection: 'articles', id: article.id, data: { format: 'html' }, ...asAuthor() })
    expect(contentShape(switched)).toEqual([
      { code: 'let x = 1', language: 'js' },
      { code: 'const y = 2', language: 'ts' },
    ])
  })
})

describe('a whole article', () => {
  it('switches to rich text and back over REST, the Markdown kept, the body complete', async () => {
    const markdown = [
      '## Getting started',
      '',
      'Some **bold** words and a [link](https://example.com).',
      '',
      '![Diagram](/api/media/file/blue.png)',
      '',
      '```python',
      'print("hello")',
      '```',
      '',
      '| Step | Done |',
      '| --- | --- |',
      '| one | yes |',
      '',
      '> A quote',
    ].join('\n')
    const article = await markdownArticle(markdown)
    const toRichText = await rest(article.id, 'html')
    expect(toRichText.status, toRichText.body).toBe(200)
    expect(toRichText.doc.markdown).toBe(markdown)
    expect(toRichText.doc.html).toContain('<h2>Getting started</h2>')
    expect(toRichText.doc.html).toContain('<strong>bold</strong>')
    expect(toRichText.doc.html).toContain('language-python')
    expect(toRichText.doc.html).toContain('<table>')
    expect(toRichText.doc.html).toContain('<img src="/api/media/file/blue.png" alt="Diagram"')
    const back = await rest(article.id, 'markdown')
    expect(back.status, back.body).toBe(200)
    expect(back.doc.markdown!.trim()).toBe(markdown)
  })
})
