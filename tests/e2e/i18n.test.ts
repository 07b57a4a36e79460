/**
 * Issue 31 in Chromium, on the built app with the demo seed: a browser asking
 * for Chinese (`Accept-Language: zh-CN`) gets the reader site, sign-in,
 * registration (the captcha's message), the profile, notifications, a search
 * with no results, the 404 page, and the admin's dashboard and queue console
 * in Chinese; the footer switcher and the profile's language choice change
 * it (a cookie for visitors, the profile for users); and the render cache,
 * hammered by two visitors with different languages on the same URLs at
 * once, never answers one in the other's language. Screenshots go to
 * tests/e2e/.artifacts/i18n-*.png.
 */
import pg from 'pg'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { AdminLoginPage } from './pages/AdminLoginPage'

type Row = { id: number; slug: string; title: string }
let app: RunningApp
let browser: Browser
let chinese: Row
let english: Row
const contexts: BrowserContext[] = []
const ZH = 'zh-CN,zh;q=0.9'
const shot = (page: Page, name: string) => page.screenshot({ path: `tests/e2e/.artifacts/i18n-${name}.png`, fullPage: false })

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startApp(), launchBrowser()])
  const db = new pg.Client({ connectionString: app.databaseUrl })
  await db.connect()
  const first = async (language: string) =>
    (await db.query<Row>(`select id, slug, title from articles where language = $1 and status = 'published' order by id limit 1`, [language])).rows[0]!
  chinese = await first('zh-CN')
  english = await first('en')
  await db.end()
})
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {})
  await browser?.close()
  await app?.stop()
})

async function visitor(acceptLanguage?: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...(acceptLanguage ? { locale: 'zh-CN', extraHTTPHeaders: { 'Accept-Language': acceptLanguage } } : { locale: 'en-US' }) })
  contexts.push(context)
  return context.newPage()
}

const htmlLang = (page: Page) => page.locator('html').getAttribute('lang')
const path = (a: Row) => `/articles/${a.id}/${a.slug}`

async function signIn(page: Page, email: string, button: string, labels: { email: string; password: string }) {
  await page.goto(`${app.url}/login`)
  await page.getByLabel(labels.email, { exact: true }).fill(email)
  await page.getByLabel(labels.password, { exact: true }).fill('inkwell-demo')
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: button, exact: true }).click()])
}

describe('a browser asking for Chinese', () => {
  it('reads the home page, an article, a search with no results and the 404 page in Chinese', async () => {
    const page = await visitor(ZH)
    await page.goto(`${app.url}/`)
    expect(await htmlLang(page)).toBe('zh-CN')
    await page.getByRole('link', { name: '最新回复' }).waitFor()
    await expect(page.getByRole('button', { name: '搜索', exact: true }).count()).resolves.toBe(1)
    await shot(page, 'home')

    await page.goto(`${app.url}${path(chinese)}`)
    await page.locator('.article-content[lang="zh-CN"] #article-title').waitFor()
    expect(await page.getByTestId('reading-time').textContent()).toMatch(/^阅读约 \d+ 分钟$/)
    // Chinese typography: a CJK font first, more leading, strict line breaking.
    const type = await page.locator('.article-content[lang="zh-CN"] .body').evaluate((el) => {
      const s = getComputedStyle(el)
      return { font: s.fontFamily, lineBreak: s.getPropertyValue('line-break'), lineHeight: parseFloat(s.lineHeight) / parseFloat(s.fontSize) }
    })
    expect(type.font).toMatch(/^"?PingFang SC/)
    expect(type.lineBreak).toBe('strict')
    expect(type.lineHeight).toBeGreaterThan(1.7)
    await shot(page, 'article')

    // An English article on a Chinese page: the interface is Chinese, the article's words are English.
    await page.goto(`${app.url}${path(english)}`)
    expect(await htmlLang(page)).toBe('zh-CN')
    await page.locator('.article-content[lang="en"] #article-title').waitFor()

    await page.goto(`${app.url}/search?q=zzqxj`)
    await page.getByText('没有与“zzqxj”匹配的文章。试试更少或其他的词，或浏览下面的内容。').waitFor()
    await page.getByRole('heading', { name: '最新文章' }).waitFor()
    await shot(page, 'search-empty')

    const missing = await page.goto(`${app.url}/no-such-page`)
    expect(missing?.status()).toBe(404)
    await page.getByText('该页面不存在，或已被移除。').waitFor()
    await shot(page, '404')
  })

  it('registers with a wrong captcha and is told so in Chinese; signs in; sees the profile and notifications in Chinese', async () => {
    const page = await visitor(ZH)
    await page.goto(`${app.url}/register`)
    await page.getByLabel('电子邮箱', { exact: true }).fill('xiaoming@example.test')
    await page.getByLabel('名字', { exact: true }).fill('小明')
    await page.getByLabel('密码', { exact: true }).fill('a long enough passphrase 123')
    await page.getByLabel('再次输入密码', { exact: true }).fill('a long enough passphrase 123')
    await page.getByLabel('图片中的字符', { exact: true }).fill('zzzzz')
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: '创建账户', exact: true }).click()])
    expect(await page.locator('[data-field-error="captcha"]').textContent()).toBe('字符与图片不符，请看新的图片再试一次。')
    await shot(page, 'register')

    await signIn(page, 'author2@inkwell.test', '登录', { email: '电子邮箱', password: '密码' })
    await page.goto(`${app.url}/profile`)
    await page.getByRole('heading', { name: '个人资料', level: 1 }).waitFor()
    await shot(page, 'profile')
    await page.goto(`${app.url}/notifications`)
    await page.getByRole('heading', { name: '通知', level: 1 }).waitFor()
    await shot(page, 'notifications')
  })

  it('shows the admin, its dashboard and the queue console with Payload’s Chinese interface', async () => {
    const page = await visitor(ZH)
    await new AdminLoginPage(page, app.url).signInAs('owner@inkwell.test')
    expect(await htmlLang(page)).toBe('zh')
    await page.getByTestId('dashboard').waitFor()
    // The charts draw after they are measured: the screenshot waits for the first one.
    await page.locator('.recharts-surface').first().waitFor()
    await shot(page, 'admin-dashboard')
    await page.goto(`${app.url}/admin/queues`)
    expect(await htmlLang(page)).toBe('zh')
    await page.locator('nav').first().waitFor()
    await shot(page, 'admin-queues')
  })
})

describe('choosing the language', () => {
  it('the footer switcher remembers a visitor’s choice in a cookie, on every page', async () => {
    const page = await visitor()
    await page.goto(`${app.url}${path(english)}`)
    expect(await htmlLang(page)).toBe('en')
    await page.getByLabel('Language', { exact: true }).selectOption('zh-CN')
    await Promise.all([page.waitForURL(`${app.url}${path(english)}`), page.getByRole('button', { name: 'Switch', exact: true }).click()])
    expect(await htmlLang(page)).toBe('zh-CN')
    await page.goto(`${app.url}/`)
    expect(await htmlLang(page)).toBe('zh-CN')
    await page.getByLabel('语言', { exact: true }).selectOption('en')
    await Promise.all([page.waitForURL(`${app.url}/`), page.getByRole('button', { name: '切换', exact: true }).click()])
    expect(await htmlLang(page)).toBe('en')
  })

  it('a user’s choice is saved in the profile and follows them to another browser', async () => {
    const first = await visitor()
    await signIn(first, 'author@inkwell.test', 'Sign in', { email: 'E-mail', password: 'Password' })
    await first.goto(`${app.url}/profile`)
    await first.getByTestId('profile-language').getByRole('combobox').selectOption('zh-CN')
    await Promise.all([first.waitForURL(/\/profile\?saved=language$/), first.getByRole('button', { name: 'Save language' }).click()])
    await first.getByText('你的语言设置已保存。').waitFor()

    const second = await visitor() // an English browser, no cookie
    await signIn(second, 'author@inkwell.test', 'Sign in', { email: 'E-mail', password: 'Password' })
    await second.goto(`${app.url}/`)
    expect(await htmlLang(second)).toBe('zh-CN')
    // Back to English, for the other tests' sake.
    await second.goto(`${app.url}/profile`)
    await second.getByTestId('profile-language').getByRole('combobox').selectOption('en')
    await Promise.all([second.waitForURL(/saved=language/), second.getByRole('button', { name: '保存语言' }).click()])
    expect(await htmlLang(second)).toBe('en')
  })
})

describe('the render cache and languages', () => {
  it('never answers a page in the other visitor’s language, under concurrent interleaved requests', async () => {
    const urls = ['/', path(chinese), path(english), '/links']
    const visitors = [
      { headers: { 'accept-language': ZH } as Record<string, string>, lang: 'zh-CN', word: '跳到正文' },
      { headers: { 'accept-language': 'en-US,en;q=0.9' }, lang: 'en', word: 'Skip to content' },
      { headers: { cookie: 'lang=zh-CN', 'accept-language': 'en' }, lang: 'zh-CN', word: '跳到正文' },
      { headers: {}, lang: 'en', word: 'Skip to content' },
    ]
    const seen = new Map<string, number>()
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        Array.from({ length: 48 }, async (_, i) => {
          const who = visitors[i % visitors.length]!
          const url = urls[Math.floor(i / visitors.length) % urls.length]!
          const response = await fetch(app.url + url, { headers: who.headers })
          const body = await response.text()
          seen.set(response.headers.get('x-cache') ?? 'none', (seen.get(response.headers.get('x-cache') ?? 'none') ?? 0) + 1)
          return { url, who, status: response.status, lang: /<html lang="([^"]+)"/.exec(body)?.[1], skip: body.includes(who.word), language: response.headers.get('content-language') }
        }),
      )
      for (const a of answers) expect({ url: a.url, status: a.status, lang: a.lang, skip: a.skip, language: a.language }).toEqual({ url: a.url, status: 200, lang: a.who.lang, skip: true, language: a.who.lang })
    }
    // The cache did answer most of them: languages are keyed, not uncacheable.
    expect(seen.get('HIT') ?? 0).toBeGreaterThan(150)
  })
})
