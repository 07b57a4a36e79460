/**
 * The queue console is a Payload admin view: listed in the admin navigation
 * for the site owner (who holds queue.monitor), refused with a clear 403 page
 * to a reader and to an anonymous visitor (a Payload view cannot set the HTTP
 * status; the console's actions answer a real 403, see notifications-pgboss).
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { logIn, page as fetchPage } from '../helpers/http'
import { AdminLoginPage } from './pages/AdminLoginPage'
import { QueueConsolePage } from './pages/QueueConsolePage'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startApp({ QUEUE_CONNECTION: 'pgboss' }), launchBrowser()])
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

describe('queue console (admin view)', () => {
  it('is in the admin navigation for the site owner and shows the queues and schedules', async () => {
    const page = await browser.newPage()
    await new AdminLoginPage(page, app.url).signInAs('owner@inkwell.test')
    const queues = new QueueConsolePage(page, app.url)
    // The link is server-rendered into the navigation (which may be collapsed at this width).
    await queues.navLink().waitFor({ state: 'attached' })
    expect(await queues.navLink().getAttribute('href')).toBe('/admin/queues')
    await queues.open()
    const text = await queues.console().textContent()
    expect(text).toContain('Jobs by state')
    expect(text).toContain('notify-article-author')
    expect(text).toContain('prune-schedule-runs')
    await page.screenshot({ path: 'tests/e2e/.artifacts/queue-console.png' }).catch(() => {})
    await page.close()
  })

  it('shows a clear 403 page, not the console, to a reader and to a visitor who is not signed in', async () => {
    const { cookie } = await logIn(app.url, 'reader1@inkwell.test')
    for (const headers of [{ cookie }, {}] as Record<string, string>[]) {
      const response = await fetchPage(app.url, '/admin/queues', { headers })
      expect(response.body).toContain('403 — not allowed')
      expect(response.body).not.toContain('Jobs by state')
    }
  })

  it('is not in the navigation of an author, who enters the admin without queue.monitor', async () => {
    const page = await browser.newPage()
    await new AdminLoginPage(page, app.url).signInAs('author@inkwell.test')
    await page.locator('nav').first().waitFor()
    await page.locator('.nav__link').first().waitFor({ state: 'attached' })
    expect(await new QueueConsolePage(page, app.url).navLink().count()).toBe(0)
    await page.close()
  })
})
