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
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'

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
