/**
 * The owner's dashboard in Chromium: on the admin home, in the light and the
 * dark theme, it draws every chart (screenshots kept in tests/e2e/.artifacts),
 * and switching day / month / year redraws them with 30, 12 and 5 buckets.
 */
import pg from 'pg'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { AdminLoginPage } from './pages/AdminLoginPage'
import { DashboardPage } from './pages/DashboardPage'

let app: RunningApp
let browser: Browser

/** A week of daily views for the demo's articles, as the view sync would have written them. */
async function recordViews(databaseUrl: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  try {
    await db.query(
      `insert into article_view_days (article_id, day, views)
       select a.id, current_date - d, 10 + (a.id * 7 + d * 13) % 40
         from articles a cross join generate_series(0, 6) d
        where a.status = 'published'
       on conflict do nothing`,
    )
    await db.query(`update articles a set view_count = (select coalesce(sum(views), 0) from article_view_days d where d.article_id = a.id)`)
  } finally {
    await db.end()
  }
}

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startApp(), launchBrowser()])
  await recordViews(app.databaseUrl)
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

describe('owner’s dashboard (admin home)', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`draws its charts in the ${theme} theme, and switching day, month and year redraws them`, async () => {
      const context = await browser.newContext({ colorScheme: theme, viewport: { width: 1400, height: 1800 } })
      // The admin's first pages compile and hydrate slowly on a busy machine; every wait below is for an event.
      context.setDefaultTimeout(120_000)
      const page = await context.newPage()
      await new AdminLoginPage(page, app.url).signInAs('owner@inkwell.test')
      const dashboard = new DashboardPage(page)
      // Payload's theme provider sets the attribute from the browser's colour scheme once hydrated.
      await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' })
      await dashboard.navLink().waitFor({ state: 'attached' })
      expect(await dashboard.navLink().getAttribute('href')).toBe('/admin#dashboard')

      await dashboard.waitForCharts('day')
      expect(await dashboard.summary('activity').textContent()).toContain('the last 30 days')
      expect(await dashboard.summary('views').textContent()).not.toContain(' 0 views')
      // Axis labels in the theme's text colour, so they stay readable on its background.
      const tickFill = await dashboard.chart('activity').locator('.recharts-cartesian-axis-tick-value').first().getAttribute('fill')
      expect(tickFill).toBe(theme === 'dark' ? '#d4d4d8' : '#3f3f46')
      await dashboard.root().screenshot({ path: `tests/e2e/.artifacts/dashboard-${theme}-day.png` })
      const dayCurve = await dashboard.curve('activity').getAttribute('d')
      expect(await dashboard.tableRows('activity')).toHaveLength(30)

      await dashboard.choose('month')
      expect(await dashboard.summary('activity').textContent()).toContain('the last 12 months')
      expect(await dashboard.curve('activity').getAttribute('d')).not.toBe(dayCurve)
      expect(await dashboard.tableRows('activity')).toHaveLength(12)
      await dashboard.root().screenshot({ path: `tests/e2e/.artifacts/dashboard-${theme}-month.png` })

      await dashboard.choose('year')
      expect(await dashboard.summary('activity').textContent()).toContain('the last 5 years')
      expect(await dashboard.tableRows('activity')).toHaveLength(5)
      await dashboard.root().screenshot({ path: `tests/e2e/.artifacts/dashboard-${theme}-year.png` })
      await context.close()
    }, 600_000)
  }

  it('shows an author their own articles’ statistics, without site-wide users', async () => {
    const page = await browser.newPage()
    page.setDefaultTimeout(120_000)
    await new AdminLoginPage(page, app.url).signInAs('author@inkwell.test')
    const dashboard = new DashboardPage(page)
    await dashboard.waitForCharts('day')
    expect(await dashboard.root().locator('h2').first().textContent()).toBe('Your articles’ statistics')
    expect(await page.getByTestId('dashboard-total-users').count()).toBe(0)
    await page.close()
  }, 600_000)
})
