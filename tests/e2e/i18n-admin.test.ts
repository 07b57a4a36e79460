/**
 * Issue 31, the admin's own components in Chinese: the site owner, in an
 * English browser, chooses Chinese in the profile (which saves it and sets
 * Payload's `payload-lng` cookie), then opens the admin's dashboard and the
 * queue console (pg-boss, so it has its tables): their words are the
 * catalogs' Chinese, not English, and so are the navigation's collection names
 * and groups, and the articles list's columns and status labels. Screenshots go
 * to .ci/out/ (not committed).
 */
import { mkdirSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { DashboardPage } from './pages/DashboardPage'
import { QueueConsolePage } from './pages/QueueConsolePage'

let app: RunningApp
let browser: Browser
const OUT = '.ci/out'

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true })
  ;[app, browser] = await Promise.all([startApp({ QUEUE_CONNECTION: 'pgboss' }), launchBrowser()])
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

/** Signs in on the reader site in an English browser and saves Chinese as the profile's language. */
async function ownerInChinese(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: 'en-US', extraHTTPHeaders: { 'Accept-Language': 'en-US,en;q=0.9' } })
  const page = await context.newPage()
  await page.goto(`${app.url}/login`)
  await page.getByLabel('E-mail', { exact: true }).fill('owner@inkwell.test')
  await page.getByLabel('Password', { exact: true }).fill('inkwell-demo')
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in', exact: true }).click()])
  await page.goto(`${app.url}/profile`)
  await page.getByTestId('profile-language').getByRole('combobox').selectOption('zh-CN')
  await Promise.all([page.waitForURL(/\/profile\?saved=language$/), page.getByRole('button', { name: 'Save language' }).click()])
  expect((await context.cookies()).find((c) => c.name === 'payload-lng')?.value).toBe('zh')
  return page
}

describe('the admin’s own components in the user’s admin language', () => {
  it('shows the dashboard and the queue console in Chinese', async () => {
    const page = await ownerInChinese()

    await page.goto(`${app.url}/admin`)
    const dashboard = new DashboardPage(page)
    // Loaded and drawn (a new site has no article views yet, so not DashboardPage.waitForCharts, which waits for that chart too).
    await page.locator('[data-testid="dashboard"][data-period="day"][aria-busy="false"]').waitFor()
    await dashboard.curve('activity').waitFor()
    expect(await page.locator('html').getAttribute('lang')).toBe('zh')
    expect(await dashboard.root().locator('h2').first().textContent()).toBe('站点统计')
    expect(await page.getByTestId('dashboard-period-day').textContent()).toBe('按日')
    expect(await dashboard.summary('activity').textContent()).toMatch(/^最近 30 天：/)
    expect(await dashboard.chart('categories').locator('h3').textContent()).toBe('各分类的文章数')
    expect(await page.getByTestId('dashboard-total-comment-rate').locator('dt').textContent()).toBe('评论率')
    expect(await dashboard.navLink().textContent()).toBe('统计面板')
    // No English word is left in the block's headings, buttons and totals (article titles aside, which are the writers').
    expect((await dashboard.root().locator('h2, button, dt').allTextContents()).join(' ')).not.toMatch(/[A-Za-z]{2}/)
    await dashboard.chart('activity').getByRole('button', { name: '显示表格' }).waitFor()
    await page.screenshot({ path: `${OUT}/i18n-admin-dashboard-zh.png`, fullPage: true })

    // The navigation's collection names and groups: read, never clicked (a collapsed group still holds its links).
    await page.locator('.nav__link').first().waitFor({ state: 'attached' })
    const navLabel = (id: string) => page.locator(`#${id} .nav__link-label`).textContent()
    expect(await navLabel('nav-articles')).toBe('文章')
    expect(await navLabel('nav-categories')).toBe('分类')
    expect(await navLabel('nav-users')).toBe('用户')
    expect(await navLabel('nav-redirects')).toBe('重定向')
    expect(await navLabel('nav-global-site-settings')).toBe('站点设置')
    expect(await page.locator('.nav-group__label').allTextContents()).toEqual(expect.arrayContaining(['内容', '用户与权限', '设置', '站点']))
    expect((await page.locator('.nav-group__label').allTextContents()).join(' ')).not.toMatch(/[A-Za-z]/)

    // The articles list: its columns are the fields' labels, its status cells the options' labels.
    await page.goto(`${app.url}/admin/collections/articles`)
    await page.locator('table thead').waitFor()
    expect((await page.locator('table thead th').allTextContents()).map((s) => s.trim())).toEqual(expect.arrayContaining(['标题', '作者', '分类', '状态', '发布时间', '浏览量']))
    expect(await page.locator('table tbody .cell-status').allTextContents()).toContain('已发布')
    await page.screenshot({ path: `${OUT}/i18n-admin-articles-zh.png`, fullPage: true })

    const queues = new QueueConsolePage(page, app.url)
    await page.goto(`${app.url}/admin/queues`)
    await queues.console().waitFor()
    const text = (await queues.console().textContent())!
    expect(await queues.console().locator('h1').textContent()).toBe('队列')
    for (const words of ['按状态统计的任务', '死信任务', '最近失败的任务', '定时计划', '已创建', '最近一小时完成']) expect(text).toContain(words)
    // Queue and schedule names are identifiers, the same in every language.
    expect(text).toContain('notify-article-author')
    expect(text).not.toMatch(/Jobs by state|Dead-lettered jobs|Schedules|No failed jobs/)
    expect(await page.getByTestId('nav-queue-console').textContent()).toContain('队列')
    await page.screenshot({ path: `${OUT}/i18n-admin-queues-zh.png`, fullPage: true })
  })
})
