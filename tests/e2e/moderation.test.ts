/**
 * Moderation in Chromium, with a fresh site's rules (first reply of a new
 * account held): a newly registered reader's reply says "Awaiting moderation"
 * to them and is absent for everyone else; the site owner approves it from the
 * admin's moderation queue; the article's author gets the reply's mail then.
 */
import pg from 'pg'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { recipient, smtpEnv, startInbox, type Inbox } from '../helpers/smtp'
import { waitUntil } from '../helpers/waitUntil'
import { RegisterPage } from './pages/AccountPages'
import { AdminLoginPage } from './pages/AdminLoginPage'
import { ArticlePage } from './pages/ArticlePage'

let app: RunningApp
let browser: Browser
let inbox: Inbox
let db: pg.Client
let article: { id: number; slug: string }

beforeAll(async () => {
  inbox = await startInbox()
  ;[app, browser] = await Promise.all([startApp(smtpEnv(inbox), { moderationDefaults: true }), launchBrowser()])
  db = new pg.Client({ connectionString: app.databaseUrl })
  await db.connect()
  ;({ rows: [article] } = await db.query(
    `select a.id, a.slug from articles a join users u on u.id = a.author_id
      where u.email = 'author@inkwell.test' and a.status = 'published' order by a.id limit 1`,
  ))
})
afterAll(async () => {
  await db?.end()
  await browser?.close()
  await app?.stop()
  await inbox?.stop()
})

describe('moderation in the browser', () => {
  it('holds a new reader’s reply for them only, until the owner approves it from the queue; then the author is told', async () => {
    const reader = await browser.newContext()
    const page = await reader.newPage()
    const register = new RegisterPage(page, app.url)
    await register.open()
    const token = (await reader.cookies()).find((c) => c.name === 'inkwell-captcha')!.value
    const { rows } = await db.query<{ answer: string }>('select answer from captcha_challenges where token = $1', [token])
    await register.fill({ email: 'newcomer@example.test', name: 'New Comer', password: 'first-secret-42', captcha: rows[0]!.answer })
    await Promise.all([page.waitForURL(/\/profile/), register.submit()])

    const articlePage = new ArticlePage(page, app.url)
    await articlePage.open(`/articles/${article.id}/${article.slug}`)
    await articlePage.reply('Held until a moderator reads it.')
    const replyId = articlePage.postedReplyId()
    expect(replyId).toMatch(/^\d+$/)
    await expect(articlePage.reply_(replyId).getByTestId('awaiting-moderation').textContent()).resolves.toBe('Awaiting moderation')

    const anonymous = await (await fetch(`${app.url}/articles/${article.id}/${article.slug}`)).text()
    expect(anonymous).not.toContain(`id="reply-${replyId}"`)
    expect(inbox.messages.filter((m) => recipient(m) === 'author@inkwell.test')).toHaveLength(0)

    const owner = await browser.newContext()
    const admin = await owner.newPage()
    await new AdminLoginPage(admin, app.url).signInAs('owner@inkwell.test')
    await expect(admin.getByTestId('nav-moderation-count').textContent()).resolves.toMatch(/^[1-9]\d*$/)
    await admin.goto(`${app.url}/admin/moderation`)
    const item = admin.locator(`[data-testid="moderation-item"][data-reply-id="${replyId}"]`)
    await expect(item.textContent()).resolves.toContain('first reply')
    await admin.getByTestId(`moderation-select-${replyId}`).check()
    await Promise.all([admin.waitForURL(/\/admin\/moderation/), admin.getByTestId('moderation-approve').click()])
    await item.waitFor({ state: 'detached' })

    const mail = await waitUntil(async () => inbox.messages.find((m) => recipient(m) === 'author@inkwell.test'), { what: 'the author’s mail' })
    expect(mail.text).toContain('Held until a moderator reads it.')
    const after = await (await fetch(`${app.url}/articles/${article.id}/${article.slug}`)).text()
    expect(after).toContain(`id="reply-${replyId}"`)
    await reader.close()
    await owner.close()
  })
})
