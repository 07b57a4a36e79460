/**
 * Issue 30, old links through the real server: `npm run blog -- import:wordpress`
 * run as a person would (its own process, arguments, exit codes) against the
 * running site's database, then the old site's addresses answer 301 with the
 * new ones, while pages that exist are untouched and unknown ones stay 404.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { adminQuery } from '../helpers/postgres'
import { runScript, scriptEnv } from '../helpers/script'
import { author, category, channelHead, channelTail, item, tag } from '../helpers/wxrFixture'

let app: RunningApp
const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-e2e-import-'))
const OLD = 'https://old.example'

beforeAll(async () => {
  app = await startApp()
}, 300_000)
afterAll(async () => {
  await app?.stop()
})

const get = (p: string) => fetch(app.url + p, { redirect: 'manual' })

describe('import:wordpress, then the old links', () => {
  let articleId: number

  it('the command imports an export, run as a person runs it', async () => {
    // A bad file's one-line refusal is checked without a process (tests/integration/import.test.ts): each run boots Payload.
    const env = scriptEnv(app.databaseUrl, { BASE_URL: app.url })
    const file = path.join(dir, 'site.xml')
    writeFileSync(
      file,
      channelHead(OLD) +
        author(1, 'alice', 'alice@old.example', 'Alice') +
        category(2, 'news', 'News') +
        tag(3, 'wp', 'WordPress') +
        item(OLD, { id: 41, title: 'Hello old world', slug: 'hello-old-world', creator: 'alice', categories: ['news'], tags: ['wp'], content: '<p>Moved.</p>' }) +
        channelTail,
    )
    const done = await runScript('jobs/cli.ts', ['import:wordpress', file, '--no-media'], env)
    expect(done.code, done.stderr + done.stdout).toBe(0)
    expect(done.stdout).toMatch(/✔ imported \d+ items/)
    const { rows } = await adminQuery(app.databaseUrl, `select id from articles where slug = 'hello-old-world'`)
    articleId = (rows[0] as { id: number }).id
  }, 240_000)

  it.each([
    ['/2020/01/02/hello-old-world/', 'article'],
    ['/2020/01/02/hello-old-world', 'article'],
    ['/?p=41', 'article'],
    ['/category/news/', '/categories/news'],
    ['/tag/wp/', '/tags/wp'],
  ])('%s answers 301', async (old, where) => {
    const answer = await get(old)
    expect(answer.status).toBe(301)
    expect(new URL(answer.headers.get('location')!, app.url).pathname).toBe(where === 'article' ? `/articles/${articleId}/hello-old-world` : where)
  })

  it('pages that exist and unknown addresses are untouched', async () => {
    expect((await get('/')).status).toBe(200)
    expect((await get(`/articles/${articleId}/hello-old-world`)).status).toBe(200)
    expect((await get('/2020/01/02/never-existed/')).status).toBe(404)
    expect((await get('/?p=999')).status).toBe(200)
  })
})
