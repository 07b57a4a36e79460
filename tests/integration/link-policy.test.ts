/**
 * The composition gives the content plugin its link policy (EXTERNAL_LINK_REL
 * and BASE_URL's origin); every save path renders with it: an article body in
 * both formats, a reply, and the editor's preview endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync', EXTERNAL_LINK_REL: 'noopener ugc', BASE_URL: 'https://blog.example' })
  cast = await createCast(t.payload)
})
afterAll(() => t?.destroy())

describe('the link policy the composition gives', () => {
  it("marks external links in articles and replies with EXTERNAL_LINK_REL, and images on BASE_URL's origin as the site's own", async () => {
    const { payload } = t
    const markdown = '[out](https://elsewhere.example/) and [home](/about)'
    const article = await payload.create({ collection: 'articles', data: { title: 'Links', format: 'markdown', markdown, status: 'published' }, overrideAccess: false, user: cast.author })
    expect(article.html).toContain('<a href="https://elsewhere.example/" rel="noopener ugc" target="_blank">out</a>')
    expect(article.html).toContain('<a href="/about">home</a>')

    const reply = await payload.create({
      collection: 'replies',
      data: { article: article.id, body: '![kept](https://blog.example/api/media/file/a.png) ![linked](https://tracker.example/p.gif)' },
      overrideAccess: false,
      user: cast.reader,
    })
    expect(reply.html).toContain('<img src="https://blog.example/api/media/file/a.png" alt="kept">')
    expect(reply.html).toContain('<a href="https://tracker.example/p.gif" rel="noopener ugc" target="_blank">linked</a>')
  })
})
