/**
 * The app started the README's way, against an empty database: it migrates,
 * seeds the demo, and serves the site, an article, the API and the admin.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { AdminLoginPage } from './pages/AdminLoginPage'
import { HomePage } from './pages/HomePage'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startApp(), launchBrowser()])
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

describe('smoke: npm start on an empty database', () => {
  it('migrated, seeded and printed the demo logins', () => {
    expect(app.output()).toContain('[seed] Done')
    expect(app.output()).toContain('owner@inkwell.test')
  })

  it('serves the home page with the seeded articles', async () => {
    const page = await browser.newPage()
    const home = new HomePage(page, app.url)
    const response = await home.open()
    expect(response?.status()).toBe(200)
    expect(await home.articleLinks().count()).toBe(10)
    await page.close()
  })

  it('serves an article page, and redirects a stale slug to the current one', async () => {
    const page = await browser.newPage()
    await new HomePage(page, app.url).open()
    const first = new HomePage(page, app.url).articleLinks().first()
    const title = (await first.textContent())!.trim()
    const href = (await first.getAttribute('href'))!
    const response = await page.goto(app.url + href)
    expect(response?.status()).toBe(200)
    await expect(page.locator('article h1').textContent()).resolves.toBe(title)

    const stale = await fetch(app.url + href.replace(/\/[^/]+$/, '/old-slug'), { redirect: 'manual' })
    expect(stale.status).toBe(301)
    expect(new URL(stale.headers.get('location')!, app.url).pathname).toBe(href)
    await page.close()
  })

  it('answers 404 with the site’s page for unknown articles and paths', async () => {
    for (const path of ['/articles/999999/nothing', '/no/such/page']) {
      const response = await fetch(app.url + path)
      expect(response.status).toBe(404)
      expect(await response.text()).toContain('That page does not exist')
    }
  })

  it('serves the REST API on the same origin', async () => {
    const response = await fetch(`${app.url}/api/articles?limit=5&depth=0`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    const body = (await response.json()) as { docs: { status: string }[]; totalDocs: number }
    expect(body.totalDocs).toBe(39) // 40 seeded, one of them a draft the public can't see
    expect(body.docs.every((d) => d.status === 'published')).toBe(true)
  })

  it('lets the seeded site owner log in to the admin', async () => {
    const page = await browser.newPage()
    await new AdminLoginPage(page, app.url).signInAs('owner@inkwell.test')
    await page.getByRole('link', { name: /Articles/ }).first().waitFor()
    const cookies = await page.context().cookies()
    const session = cookies.find((c) => c.name === 'payload-token')
    expect(session?.httpOnly).toBe(true)
    expect(session?.sameSite).toBe('Lax')
    await page.screenshot({ path: 'tests/e2e/.artifacts/admin-dashboard.png' }).catch(() => {})
    await page.close()
  })

  it('shows a reader a clear “no access” page instead of the admin', async () => {
    const page = await browser.newPage()
    const login = new AdminLoginPage(page, app.url)
    await login.open()
    await login.logIn('reader1@inkwell.test', 'inkwell-demo')
    await page.getByText(/not allowed|unauthorized/i).first().waitFor()
    await page.screenshot({ path: 'tests/e2e/.artifacts/admin-reader.png' }).catch(() => {})
    await page.close()
  })
})
