/**
 * The attack corpus through every entry point that stores user HTML, the
 * way it is really stored (Payload's Local API, access enforced, real
 * PostgreSQL): Markdown article bodies, rich-text article bodies (text, link
 * URLs, code blocks and their language, image alt text), and replies. What
 * is stored must hold nothing that can run script, and be a fixed point of
 * the sanitizer.
 */
import type { Payload } from 'payload'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { User } from '../../src/payload-types'
import { sanitize } from '../../src/lib/sanitize'
import { codeBlock, editorState, heading, link, paragraph, text, upload } from '../fixtures/lexical'
import { scriptableParts } from '../fixtures/scriptableParts'
import { REFUSED_ON_INPUT, URL_VECTORS, XSS_VECTORS } from '../fixtures/xss-vectors'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'

let t: TestPayload
let payload: Payload
let cast: Awaited<ReturnType<typeof createCast>>
let articleId: number
let imageId: number

beforeAll(async () => {
  t = await createTestPayload()
  payload = t.payload
  cast = await createCast(payload)
  const data = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).png().toBuffer()
  imageId = (
    await payload.create({
      collection: 'media',
      data: { alt: '"><img src=x onerror=alert(1)>' },
      file: { data, mimetype: 'image/png', name: 'x.png', size: data.length },
      user: cast.author,
    })
  ).id
  articleId = (await payload.create({ collection: 'articles', data: { title: 'Host', format: 'markdown', markdown: 'x', status: 'published' }, user: cast.author })).id
})
afterAll(() => t?.destroy())

function problems(stored: { id: string; html: string | null | undefined }[]): string[] {
  return stored.flatMap(({ id, html }) => [
    ...scriptableParts(html ?? '').map((f) => `${id}: ${f}`),
    ...(sanitize(html ?? '') === (html ?? '') ? [] : [`${id}: not a fixed point of sanitize`]),
  ])
}

const as = (user: User) => ({ user, overrideAccess: false }) as const

describe('stored HTML from the attack corpus', () => {
  it(`Markdown article bodies (${XSS_VECTORS.length} vectors)`, async () => {
    const stored = []
    for (const v of XSS_VECTORS) {
      const doc = await payload.create({ collection: 'articles', data: { title: v.id, format: 'markdown', markdown: v.payload } as never, ...as(cast.author) })
      stored.push({ id: v.id, html: doc.html })
    }
    expect(problems(stored)).toEqual([])
  })

  it(`rich-text article bodies: text, link URLs, code blocks, languages and image alt text (${XSS_VECTORS.length} vectors)`, async () => {
    const stored = []
    let refusedUrls = 0
    for (const [i, v] of XSS_VECTORS.entries()) {
      const url = v.url ?? URL_VECTORS[i % URL_VECTORS.length]!
      const body = [heading('h2', v.payload), paragraph(text(v.payload)), codeBlock(v.payload, i % 2 ? 'typescript' : 'html'), upload(imageId, v.payload)]
      const create = (content: object) =>
        payload.create({ collection: 'articles', data: { title: v.id, format: 'html', content } as never, ...as(cast.author) })
      stored.push({ id: v.id, html: (await create(editorState(...body))).html })
      // A hostile link URL is either refused by the link field's validation (naming the url) or rendered harmless.
      try {
        stored.push({ id: `${v.id} (link)`, html: (await create(editorState(paragraph(link(url, v.payload))))).html })
      } catch (error) {
        expect(JSON.stringify((error as { data?: unknown }).data)).toMatch(/url/)
        refusedUrls++
      }
    }
    expect(problems(stored)).toEqual([])
    expect(refusedUrls).toBeGreaterThan(0)
  })

  it('refuses a code block language outside the list, naming the field', async () => {
    const content = editorState(codeBlock('x', '"><script>alert(1)</script>'))
    await expect(
      payload.create({ collection: 'articles', data: { title: 'bad language', format: 'html', content } as never, ...as(cast.author) }),
    ).rejects.toThrow(/Language/)
  })

  it(`replies (${XSS_VECTORS.length} vectors)`, async () => {
    const stored = []
    for (const v of XSS_VECTORS) {
      const doc = await payload.create({ collection: 'replies', data: { article: articleId, body: v.payload }, ...as(cast.reader) })
      stored.push({ id: v.id, html: doc.html })
    }
    expect(problems(stored)).toEqual([])
  })

  it(`refuses the ${REFUSED_ON_INPUT.length} vectors holding control characters before anything is stored`, async () => {
    expect(REFUSED_ON_INPUT.length).toBeGreaterThan(0)
    for (const v of REFUSED_ON_INPUT) {
      await expect(payload.create({ collection: 'replies', data: { article: articleId, body: v.payload }, ...as(cast.reader) })).rejects.toThrow(/body/)
    }
  })

  it('an author cannot write the stored HTML directly', async () => {
    const doc = await payload.create({
      collection: 'articles',
      data: { title: 'direct', format: 'markdown', markdown: 'safe', html: '<script>alert(1)</script>' } as never,
      ...as(cast.author),
    })
    expect(doc.html).toBe('<p>safe</p>\n')
  })
})
