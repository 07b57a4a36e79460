/**
 * Search on the built reader site, over HTTP and in Chromium: the header box,
 * highlighted results, filters, the empty state, drafts kept out and hostile
 * queries answered with a page.
 */
import pg from 'pg'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { page } from '../helpers/http'
import { SearchPage } from './pages/SearchPage'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  app = await startApp()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
  await app?.dropDatabase()
})

describe('search in the browser', () => {
  it('searches from the header box, highlights matches, keeps the query and filters by category', async () => {
    const tab = await browser.newPage()
    const site = new SearchPage(tab, app.url)
    await site.searchFromHeader('缓存策略')
    expect((await site.resultTitles())[0]).toBe('缓存策略与实践')
    expect(await site.highlights()).toContain('缓存策略')
    expect(await site.headerQuery()).toBe('缓存策略')
    expect(await site.pageQuery()).toBe('缓存策略')

    await site.searchFromHeader('PostgreSQL')
    const all = await site.resultTitles()
    await site.filterByCategory('随笔')
    const filtered = await site.resultTitles()
    expect(filtered.length).toBeGreaterThan(0)
    expect(filtered.length).toBeLessThan(all.length)
    expect(filtered).toContain('深入理解 PostgreSQL 索引')
    await tab.close()
  })
})

describe('search over HTTP', () => {
  it('suggests recent articles and categories when nothing is asked or found', async () => {
    for (const path of ['/search', '/search?q=zzzyxnothing']) {
      const response = await page(app.url, path)
      expect(response.status).toBe(200)
      expect(response.body).toContain('Latest articles')
      expect(response.body).toContain('/categories/')
    }
    expect((await page(app.url, '/search?q=zzzyxnothing')).body).toContain('No articles match')
  })

  it('never shows the draft', async () => {
    const db = new pg.Client({ connectionString: app.databaseUrl })
    await db.connect()
    const { rows } = await db.query<{ title: string }>(`select title from articles where status = 'draft' limit 1`)
    await db.end()
    const response = await page(app.url, '/search?q=' + encodeURIComponent(`"${rows[0]!.title}"`))
    expect(response.status).toBe(200)
    expect(response.body).not.toMatch(/class="card-title"/)
  })

  it('answers hostile queries with a page, never a 500', async () => {
    // A NUL names nothing the site can hold: 400 before any page runs (src/server/nulBytes.ts, issue 26 §5).
    expect((await page(app.url, '/search?q=%00')).status).toBe(400)
    for (const q of ['%22unbalanced', '-%20OR%20-', '%27%3B%20drop%20table%20articles%3B--', '%01%1b', '%3Cscript%3Ealert(1)%3C%2Fscript%3E']) {
      const response = await page(app.url, '/search?q=' + q)
      expect(response.status, q).toBe(200)
      // The query comes back escaped in text, and only inside quoted attribute values unescaped.
      expect(response.body.replace(/"[^"]*"/g, '""')).not.toContain('<script>alert(1)')
    }
    const huge = await page(app.url, '/search?q=' + 'x'.repeat(5000))
    expect(huge.status).toBe(400)
    expect(huge.body).toContain('at most 200 characters')
    const json = await fetch(`${app.url}/api/search?q=${encodeURIComponent('缓存')}`)
    expect(json.status).toBe(200)
    expect(((await json.json()) as { docs: { title: string }[] }).docs.map((d) => d.title)).toContain('缓存策略与实践')
  })
})
