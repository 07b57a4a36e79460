/**
 * The queue console is a Payload admin view: listed in the admin navigation
 * for the site owner (who holds queue.monitor), refused with HTTP 403 and a
 * clear page to signed-in users without queue.monitor, and, like Payload's own
 * admin views, sending a visitor who is not signed in to the admin's login
 * (which brings them back). The status is set by the one-origin server
 * (src/server/guardedAdminViews.ts): a Payload view always answers 200.
 *
 * The HTTP requests carry `Sec-Fetch-Site` as a browser's navigation does:
 * without it (nor Origin) Payload ignores the session cookie (its CSRF rule),
 * so a bare cookie is an anonymous visitor to Payload, the guard and the view.
 */
import pg from 'pg'
import { PgBoss } from 'pg-boss'
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

  const navigation = { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }

  it('answers 403 with a clear page, not the console, to signed-in users without queue.monitor (a reader, an author)', async () => {
    for (const email of ['reader1@inkwell.test', 'author@inkwell.test']) {
      const { cookie } = await logIn(app.url, email)
      const response = await fetchPage(app.url, '/admin/queues', { headers: { cookie, ...navigation } })
      expect(response.status, email).toBe(403)
      expect(response.headers.get('cache-control')).toContain('no-store')
      expect(response.body).toContain('403 — not allowed')
      expect(response.body).toContain('queue.monitor')
      expect(response.body).not.toContain('Jobs by state')
    }
  })

  it('sends a visitor who is not signed in to the admin login, as Payload does for its own views, never showing the console', async () => {
    for (const headers of [navigation, { cookie: 'payload-token=not-a-token', ...navigation }]) {
      const response = await fetchPage(app.url, '/admin/queues', { headers })
      expect(response.status).toBeGreaterThanOrEqual(300)
      expect(response.status).toBeLessThan(400)
      expect(response.headers.get('location')).toBe('/admin/login?redirect=%2Fadmin%2Fqueues')
      expect(response.body).not.toContain('Jobs by state')
    }
  })

  it('answers 200 with the console to the site owner, on a navigation and on a query string', async () => {
    const { cookie } = await logIn(app.url, 'owner@inkwell.test')
    for (const path of ['/admin/queues', '/admin/queues?x=1']) {
      const response = await fetchPage(app.url, path, { headers: { cookie, ...navigation } })
      expect(response.status, path).toBe(200)
      expect(response.body).toContain('Jobs by state')
    }
  })

  it('retries and deletes a failed job with the console’s buttons, through the running app in pg-boss mode (issue 27 item 7)', async () => {
    // A job that fails for good (malformed data), sent to the app's own queue.
    const boss = new PgBoss({ connectionString: app.databaseUrl, schema: 'pgboss', max: 1, supervise: false, schedule: false, migrate: false } as never)
    await boss.start()
    const failing = (await boss.send('notify-article-author', { replyId: 'never-a-number' } as never, { retryLimit: 0 } as never))!
    await boss.stop({ graceful: false, wait: true } as never)
    const db = new pg.Client({ connectionString: app.databaseUrl })
    await db.connect()
    const jobOf = async () => (await db.query<{ state: string; retry_count: number }>('select state, retry_count from pgboss.job where id = $1', [failing])).rows[0]
    try {
      for (let i = 0; (await jobOf())?.state !== 'failed'; i++) {
        if (i > 300) throw new Error(`the job did not fail: ${JSON.stringify(await jobOf())}`)
        await new Promise((r) => setTimeout(r, 100))
      }
      const page = await browser.newPage()
      await new AdminLoginPage(page, app.url).signInAs('owner@inkwell.test')
      const queues = new QueueConsolePage(page, app.url)
      await queues.open()
      const row = () => queues.console().locator('tr', { hasText: failing })
      await Promise.all([page.waitForURL(`${app.url}/admin/queues`), row().getByRole('button', { name: 'Retry' }).click()])
      for (let i = 0; !((await jobOf())!.retry_count >= 1 && (await jobOf())!.state === 'failed'); i++) {
        if (i > 300) throw new Error(`the retried job did not run: ${JSON.stringify(await jobOf())}`)
        await new Promise((r) => setTimeout(r, 100))
      }
      await queues.open()
      await Promise.all([page.waitForURL(`${app.url}/admin/queues`), row().getByRole('button', { name: 'Delete' }).click()])
      expect(await jobOf()).toBeUndefined()
      await page.close()
    } finally {
      await db.end()
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
