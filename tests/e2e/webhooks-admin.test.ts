/**
 * Webhooks in the admin, in Chromium (issue 33): the site owner creates a hook
 * from the form above the list and sees its signing secret once; the secret is
 * not shown again (nor readable over the API), and the hook is in the list.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { AdminLoginPage } from './pages/AdminLoginPage'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startApp(), launchBrowser()])
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

describe('webhooks (admin)', () => {
  it('creates a hook and shows its secret once', async () => {
    const page = await browser.newPage()
    await new AdminLoginPage(page, app.url).signInAs('owner@inkwell.test')
    await page.goto(`${app.url}/admin/collections/webhooks`)
    await page.getByLabel('Address (https)').fill('https://hooks.example.com/inkwell')
    await page.getByLabel('article.published').check()
    await page.getByRole('button', { name: 'Create webhook' }).click()
    const secret = page.locator('#issued-webhook-secret')
    await secret.waitFor()
    expect(await secret.inputValue()).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/)
    await page.getByRole('cell', { name: 'https://hooks.example.com/inkwell' }).first().waitFor()

    // Once: a reload shows the hook, not its secret; the API never returns it either.
    await page.reload()
    await page.getByRole('cell', { name: 'https://hooks.example.com/inkwell' }).first().waitFor()
    expect(await page.locator('#issued-webhook-secret').count()).toBe(0)
    const listed = await page.evaluate(async () => (await fetch('/api/webhooks?depth=0', { credentials: 'include' })).json())
    expect(JSON.stringify(listed)).not.toContain('whsec_')
    await page.screenshot({ path: 'tests/e2e/.artifacts/webhooks-admin.png' }).catch(() => {})
    await page.close()
  })
})
