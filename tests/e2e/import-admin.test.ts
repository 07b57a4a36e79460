/**
 * Issue 30, the admin's import page in Chromium on the real server, with the
 * queue in pg-boss (the import runs as a queued job in the worker): the site
 * owner finds "Import" in the navigation, uploads a small WordPress export
 * with the options, watches the progress bar complete and reads the report;
 * a file that is not an export is refused on the page. An author has no link
 * and is refused the page (403).
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { adminQuery } from '../helpers/postgres'
import { smallWxr } from '../helpers/wxrFixture'
import { AdminLoginPage } from './pages/AdminLoginPage'
import { ImportPage } from './pages/ImportPage'

let app: RunningApp
let browser: Browser
const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-e2e-import-admin-'))

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startApp({ QUEUE_CONNECTION: 'pgboss' }), launchBrowser()])
}, 300_000)
afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

describe('the import page (admin)', () => {
  it('the owner uploads a WXR export, watches the progress bar complete and reads the report', async () => {
    const file = path.join(dir, 'old-blog.xml')
    writeFileSync(file, smallWxr())
    const page = await browser.newPage()
    await new AdminLoginPage(page, app.url).signInAs('owner@inkwell.test')
    const importing = new ImportPage(page, app.url)
    await importing.navLink().waitFor({ state: 'attached' })
    expect(await importing.navLink().getAttribute('href')).toBe('/admin/import')
    await importing.open()

    await importing.upload(file, { pagesCategory: 'Static pages', skipMedia: true })
    await importing.progress().waitFor()
    expect(await importing.progressBar().count()).toBe(1)
    // The page follows the queued job until it ends (the worker runs it).
    await page.locator('[data-testid="import-progress"][data-status="done"]').waitFor({ timeout: 60_000 })
    expect(await importing.progressBar().getAttribute('value')).toBe('100')
    expect(await importing.progressBar().getAttribute('max')).toBe('100')
    expect(await importing.progressText().textContent()).toMatch(/^(\d+) of \1 items \(100%\)$/)
    await importing.report().waitFor()
    expect(await importing.count('articles').textContent()).toBe('Articles2000')
    expect(await importing.count('pages').textContent()).toBe('Pages1000')
    expect(await importing.count('replies').textContent()).toBe('Replies2000')
    expect(await page.getByTestId('import-summary').textContent()).toMatch(/^imported \d+ items/)
    await page.screenshot({ path: 'tests/e2e/.artifacts/import-admin.png', fullPage: true }).catch(() => {})

    const { rows } = await adminQuery(app.databaseUrl, `select count(*)::int as n from articles where slug in ('hello-from-wordpress', 'second-post', 'about')`)
    expect((rows[0] as { n: number }).n).toBe(3)
    // The run is listed on the page afterwards, with its summary.
    await importing.open()
    expect(await page.getByTestId('import-recent').textContent()).toContain('old-blog.xml')
    await page.close()
  }, 120_000)

  it('refuses a file that is not an export, on the page, with a clear message', async () => {
    const file = path.join(dir, 'notes.txt')
    writeFileSync(file, 'Just some notes.')
    const page = await browser.newPage()
    await new AdminLoginPage(page, app.url).signInAs('owner@inkwell.test')
    const importing = new ImportPage(page, app.url)
    await importing.open()
    await importing.upload(file)
    await importing.error().waitFor()
    expect(await importing.error().textContent()).toBe('This file is neither a WordPress export (WXR, XML) nor a Ghost export (JSON).')
    await page.close()
  }, 60_000)

  it('gives an author no link and no page', async () => {
    const page = await browser.newPage()
    await new AdminLoginPage(page, app.url).signInAs('author@inkwell.test')
    const importing = new ImportPage(page, app.url)
    // The one-origin server answers for the view (src/server/guardedAdminViews.ts): 403 and a page naming the permission.
    const response = await page.goto(`${app.url}/admin/import`)
    expect(response!.status()).toBe(403)
    expect(await page.getByTestId('admin-view-refused').textContent()).toContain('import.run')
    expect(await page.getByTestId('import-form').count()).toBe(0)
    await page.goto(`${app.url}/admin`)
    await page.locator('nav').first().waitFor({ state: 'attached' })
    expect(await importing.navLink().count()).toBe(0)
    await page.close()
  }, 60_000)
})
