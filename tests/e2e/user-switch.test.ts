/**
 * The user switcher in Chromium, on inkwell.test with APP_DEBUG=true: the
 * owner picks a user from the reader site's panel, browses as them with the
 * "Viewing as … — switch back" banner on every page and in the admin, and
 * switches back in one click.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { freePort, startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { page as fetchPage } from '../helpers/http'
import { AccountMenu } from './pages/AccountPages'
import { AdminLoginPage } from './pages/AdminLoginPage'
import { UserSwitcher } from './pages/UserSwitcher'

let app: RunningApp
let browser: Browser
let site: string

beforeAll(async () => {
  const port = await freePort()
  site = `http://inkwell.test:${port}`
  ;[app, browser] = await Promise.all([
    startApp({ APP_DEBUG: 'true', PORT: String(port), BASE_URL: site }),
    launchBrowser([`--host-resolver-rules=MAP inkwell.test 127.0.0.1`]),
  ])
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

// The owner's app is reached as http://inkwell.test (a plain-HTTP host, to which
// Chromium sends no Fetch Metadata: see src/server/plainHttpFetchSite.ts) and,
// in the second test, as app.url (127.0.0.1, not a .dev/.local/.test host).
describe('user switcher (Chromium)', () => {
  it('the owner switches to an author from the site, browses the site and the admin as them, and switches back', async () => {
    const page = await browser.newPage()
    await new AdminLoginPage(page, site).signInAs('owner@inkwell.test')
    // The admin shows the picker to the owner.
    const switcher = new UserSwitcher(page)
    await switcher.panel().waitFor()

    await page.goto(`${site}/`)
    const menu = new AccountMenu(page)
    expect(await menu.userName().textContent()).toContain('Olivia Owner')
    await switcher.switchTo('author@inkwell.test')
    expect(await switcher.banner().textContent()).toMatch(/Viewing as\s+Ada Author\s+—\s+switch back/)
    expect(await menu.userName().textContent()).toContain('Ada Author')

    // Every page, and the admin too, is the author's.
    await page.goto(`${site}/profile`)
    await switcher.banner().waitFor()
    expect(await menu.userName().textContent()).toContain('Ada Author')
    await page.goto(`${site}/admin`)
    await switcher.banner().waitFor()
    expect(await switcher.banner().textContent()).toContain('Ada Author')

    // One click back, from the admin; then the site is the owner's again.
    await Promise.all([page.waitForEvent('load'), page.getByTestId('user-switch-back').click()])
    await switcher.panel().waitFor()
    await page.goto(`${site}/`)
    await switcher.panel().waitFor()
    expect(await menu.userName().textContent()).toContain('Olivia Owner')

    // And from the site's banner.
    await switcher.switchTo('reader1@inkwell.test')
    expect(await menu.userName().textContent()).toContain('Reader 1')
    await switcher.switchBack()
    expect(await menu.userName().textContent()).toContain('Olivia Owner')

    // A reader may not enter the admin: its "no access" answer still offers the way back (issue 26 §3).
    await switcher.switchTo('reader1@inkwell.test')
    await page.goto(`${site}/admin`)
    await switcher.banner().waitFor()
    expect(await switcher.banner().textContent()).toMatch(/Viewing as\s+Reader 1\s+—\s+switch back/)
    await page.screenshot({ path: 'tests/e2e/.artifacts/admin-unauthorized-switched.png' }).catch(() => {})
    await switcher.switchBack()
    await page.goto(`${site}/`)
    expect(await menu.userName().textContent()).toContain('Olivia Owner')
    await page.screenshot({ path: 'tests/e2e/.artifacts/user-switch.png' }).catch(() => {})
    await page.close()
  })

  it('renders nothing on a host that is not .dev/.local/.test, and its route is a 404 there', async () => {
    const page = await browser.newPage()
    await new AdminLoginPage(page, app.url).signInAs('owner@inkwell.test')
    await page.goto(`${app.url}/`)
    await new AccountMenu(page).userName().waitFor()
    expect(await new UserSwitcher(page).panel().count()).toBe(0)
    expect(await page.locator('[data-testid^="user-switch"]').count()).toBe(0)
    expect((await fetchPage(app.url, '/api/user-switch')).status).toBe(404)
    await page.close()
  })
})
