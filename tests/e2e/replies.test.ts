/**
 * Replies and notifications in Chromium: B replies on A's article; A sees the
 * unread badge, opens the notifications and follows the link to the reply.
 */
import pg from 'pg'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { LoginPage } from './pages/AccountPages'
import { ArticlePage } from './pages/ArticlePage'

let app: RunningApp
let browser: Browser
let article: { id: number; slug: string; title: string }

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startApp(), launchBrowser()])
  const db = new pg.Client({ connectionString: app.databaseUrl })
  await db.connect()
  // An article by Ada (author@inkwell.test).
  ;({ rows: [article] } = await db.query(
    `select a.id, a.slug, a.title from articles a join users u on u.id = a.author_id
      where u.email = 'author@inkwell.test' and a.status = 'published' order by a.id limit 1`,
  ))
  await db.end()
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

async function signedIn(email: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await new LoginPage(page, app.url).open()
  await new LoginPage(page, app.url).signIn(email, 'inkwell-demo')
  return { context, page }
}

describe('replies and notifications', () => {
  it('B replies, A is notified and follows the link to the reply', async () => {
    const b = await signedIn('reader1@inkwell.test')
    const articlePage = new ArticlePage(b.page, app.url)
    await articlePage.open(`/articles/${article.id}/${article.slug}`)

    await articlePage.reply('   ')
    await expect(articlePage.replyError().textContent()).resolves.toContain('cannot be empty')

    await articlePage.reply('What a useful article, thank you!')
    const replyId = new URL(b.page.url()).hash.replace('#reply-', '')
    await expect(articlePage.reply_(replyId).textContent()).resolves.toContain('What a useful article, thank you!')
    await b.context.close()

    const a = await signedIn('author@inkwell.test')
    await a.page.goto(`${app.url}/`)
    await expect(a.page.getByTestId('unread-badge').textContent()).resolves.toBe('1')
    await Promise.all([a.page.waitForURL(/\/notifications/), a.page.getByTestId('notifications-link').click()])
    const item = a.page.getByTestId('notification').first()
    await expect(item.textContent()).resolves.toContain('Reader 1 replied to')
    await expect(a.page.getByTestId('unread-badge').count()).resolves.toBe(0) // read once shown
    await a.page.screenshot({ path: 'tests/e2e/.artifacts/notifications.png' })
    await Promise.all([a.page.waitForURL(/\/articles\//), item.getByTestId('notification-link').click()])
    expect(new URL(a.page.url()).hash).toBe(`#reply-${replyId}`)
    await expect(a.page.locator(`#reply-${replyId}`).textContent()).resolves.toContain('What a useful article')
    await a.context.close()
  })

  it('sends anonymous visitors who post to the sign-in page, and shows them no form', async () => {
    const response = await fetch(`${app.url}/articles/${article.id}/${article.slug}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url },
      body: 'body=hello',
      redirect: 'manual',
    })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toMatch(/^\/login\?next=/)
    const page = await (await fetch(`${app.url}/articles/${article.id}/${article.slug}`)).text()
    expect(page).not.toContain('Post reply')
  })

  it('refuses a reply form posted from another origin', async () => {
    const response = await fetch(`${app.url}/articles/${article.id}/${article.slug}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.test' },
      body: 'body=hello',
      redirect: 'manual',
    })
    expect(response.status).toBe(403)
  })
})
