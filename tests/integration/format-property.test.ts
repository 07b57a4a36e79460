/**
 * The format switch as a tested property (issue 26, item 4): for every
 * document of the corpora, converting it to the other format and back renders
 * to the same sanitized HTML (compared in canonical form, canonicalHtml.ts),
 * and so does the converted body in the middle; or the switch is refused with
 * a message naming what would change, as a validation error on the `format`
 * field on every path (REST, GraphQL, Local API).
 */
import { createLocalReq, type Payload, type PayloadRequest } from 'payload'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { canonicalHtml } from '../../collections/Articles/hooks/canonicalHtml'
import { markdownSwitch, refusal, richTextSwitch } from '../../collections/Articles/hooks/conversionCheck'
import { lexicalToMarkdown, markdownToLexical } from '../../collections/Articles/hooks/converters'
import { mediaFinder, renderLexical } from '../../collections/Articles/hooks/renderLexical'
import { renderMarkdown } from '../../src/lib/markdown'
import type { Media, User } from '../../src/payload-types'
import { linkPolicyOf } from '../../src/plugins/content/options'
import { HIGHLIGHTED_LANGUAGES, MARKDOWN_CORPUS } from '../fixtures/markdown-corpus'
import { RICH_TEXT_CORPUS } from '../fixtures/richtext-corpus'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { createCast, PASSWORD } from '../helpers/users'
import { graphqlRequest } from './graphql-client'
import { editorState, paragraph, text } from '../fixtures/lexical'

let t: TestPayload
let payload: Payload
let author: User
let req: PayloadRequest
const media: Media[] = []

beforeAll(async () => {
  t = await createTestPayload()
  payload = t.payload
  author = (await createCast(payload)).author
  for (const [name, colour] of [['a.png', '#3366cc'], ['b.png', '#cc6633']] as const) {
    const data = await sharp({ create: { width: 8, height: 6, channels: 3, background: colour } }).png().toBuffer()
    media.push(
      await payload.create({
        collection: 'media',
        data: { alt: `Media ${name}` },
        file: { data, mimetype: 'image/png', name, size: data.length },
        user: author,
        overrideAccess: false,
      }),
    )
  }
  req = await createLocalReq({ user: author }, payload)
})
afterAll(() => t?.destroy())

const links = () => linkPolicyOf(payload)
const markdownHtml = async (markdown: string) => canonicalHtml(await renderMarkdown(markdown, { links: links() }), payload.config.serverURL)
const richTextHtml = async (content: unknown) => canonicalHtml(await renderLexical(content, mediaFinder(req), links()), payload.config.serverURL)

describe('the Markdown corpus', () => {
  it('has at least 60 documents, with code in every language the site highlights', () => {
    expect(MARKDOWN_CORPUS.length).toBeGreaterThanOrEqual(60)
    const fences = new Set(MARKDOWN_CORPUS.flatMap((c) => [...c.markdown.matchAll(/^```(\S+)$/gm)].map((m) => m[1])))
    for (const lang of HIGHLIGHTED_LANGUAGES) expect(fences).toContain(lang)
  })
})

describe('Markdown → rich text → Markdown renders the same, or the switch is refused naming what would change', () => {
  it.each(MARKDOWN_CORPUS)('$name', async ({ markdown, refused }) => {
    const { content, changes } = await markdownSwitch(markdown, req)
    if (refused) {
      expect(changes, 'expected a refusal').not.toEqual([])
      expect(refusal('html', changes)).toMatch(refused)
      return
    }
    expect(changes).toEqual([])
    const original = await markdownHtml(markdown)
    expect(await richTextHtml(content), 'the rich text as readers see it').toBe(original)
    const back = await lexicalToMarkdown(content, req)
    expect(await markdownHtml(back), `the Markdown converted back:\n${back}`).toBe(original)
  })
})

describe('rich text → Markdown → rich text renders the same, or the switch is refused naming what would change', () => {
  it.each(RICH_TEXT_CORPUS)('$name', async ({ content: build, refused }) => {
    const content = build({ a: media[0]!.id, b: media[1]!.id })
    const { markdown, changes } = await richTextSwitch(content, req)
    if (refused) {
      expect(changes, 'expected a refusal').not.toEqual([])
      expect(refusal('markdown', changes)).toMatch(refused)
      return
    }
    expect(changes).toEqual([])
    const original = await richTextHtml(content)
    expect(await markdownHtml(markdown), `the Markdown as readers see it:\n${markdown}`).toBe(original)
    expect(await richTextHtml(await markdownToLexical(markdown, req)), `converted back from:\n${markdown}`).toBe(original)
  })
})

describe('a refused switch', () => {
  const MARKDOWN = '## Fine\n\nText.\n\n![Logo](https://example.com/logo.png)\n\n> Outer\n>\n> > Inner'
  const WOULD_CHANGE = /^Switching to rich text would change: image from another site at line 5 \(“!\[Logo\]\(https:\/\/example\.com\/logo\.png\)”\); nested quote at line 7 \(“> Outer”\)\./
  const asAuthor = () => ({ user: author, overrideAccess: false }) as const
  const markdownArticle = () =>
    payload.create({ collection: 'articles', data: { title: 'Refused', format: 'markdown', markdown: MARKDOWN } as never, ...asAuthor() })
  const unchanged = async (id: number) => {
    const doc = await payload.findByID({ collection: 'articles', id, depth: 0 })
    expect(doc.format).toBe('markdown')
    expect(doc.markdown).toBe(MARKDOWN)
    expect(doc.content ?? null).toBeNull()
  }

  it('over REST: 400, an error on the format field naming each block that would change, nothing saved', async () => {
    const article = await markdownArticle()
    const { token } = await payload.login({ collection: 'users', data: { email: author.email, password: PASSWORD } })
    const reply = await new Browser(payload, t.databaseName).request(`/api/articles/${article.id}`, {
      method: 'PATCH',
      json: { format: 'html' },
      headers: { authorization: `JWT ${token}` },
    })
    expect(reply.status).toBe(400)
    const body = (await reply.json()) as { errors: { name: string; data?: { errors: { path: string; message: string }[] } }[] }
    expect(body.errors[0]!.name).toBe('ValidationError')
    expect(body.errors[0]!.data!.errors).toEqual([{ path: 'format', message: expect.stringMatching(WOULD_CHANGE) }])
    await unchanged(article.id)
  })

  it('through the Local API: a ValidationError on the format field', async () => {
    const article = await markdownArticle()
    const error = await payload.update({ collection: 'articles', id: article.id, data: { format: 'html' }, ...asAuthor() }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ValidationError', data: { errors: [{ path: 'format', message: expect.stringMatching(WOULD_CHANGE) }] } })
    await unchanged(article.id)
  })

  // The helper runs graphql-http without Payload's error formatter, so only the message naming the field is checked here.
  it('over GraphQL: the mutation fails on the format field, nothing saved', async () => {
    const article = await markdownArticle()
    const { token } = await payload.login({ collection: 'users', data: { email: author.email, password: PASSWORD } })
    const reply = await graphqlRequest(t, `mutation { updateArticle(id: ${article.id}, data: { format: html }) { id format } }`, { authorization: `JWT ${token}` })
    expect(reply.data?.updateArticle ?? null).toBeNull()
    expect(reply.errors?.[0]?.message).toBe('The following field is invalid: format')
    await unchanged(article.id)
  })

  it('the other way: rich text that Markdown cannot hold stays rich text, the error names the block', async () => {
    const content = editorState(paragraph(text('Fine.')), paragraph(text('an '), text('underlined', 8), text(' word')))
    const article = await payload.create({ collection: 'articles', data: { title: 'Rich', format: 'html', content } as never, ...asAuthor() })
    const error = await payload.update({ collection: 'articles', id: article.id, data: { format: 'markdown' }, ...asAuthor() }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      name: 'ValidationError',
      data: { errors: [{ path: 'format', message: expect.stringMatching(/^Switching to Markdown would change: paragraph \(block 2 “an underlined word”\)\./) }] },
    })
    expect((await payload.findByID({ collection: 'articles', id: article.id, depth: 0 })).format).toBe('html')
  })

  it('a switch that changes nothing still saves, both ways', async () => {
    const article = await payload.create({
      collection: 'articles',
      data: { title: 'Images', format: 'markdown', markdown: `![One](/api/media/file/a.png)\n![Two](/api/media/file/b.png)\n` } as never,
      ...asAuthor(),
    })
    const rich = await payload.update({ collection: 'articles', id: article.id, data: { format: 'html' }, ...asAuthor() })
    expect(rich.html).not.toContain('![')
    expect(rich.html?.match(/<img /g)).toHaveLength(2)
    const back = await payload.update({ collection: 'articles', id: article.id, data: { format: 'markdown' }, ...asAuthor() })
    expect(back.markdown).toBe('![One](/api/media/file/a.png)\n\n![Two](/api/media/file/b.png)\n')
  })
})
