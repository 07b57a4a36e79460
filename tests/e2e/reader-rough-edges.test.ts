/**
 * Issue 16 on the reader site, in Chromium at 1280 and 390 px and over HTTP:
 * avatars wherever a person is shown, "Write" only for writers (and it opens
 * a new article), threaded replies that their writers edit and delete with a
 * confirmation, follows by e-mail with an unsubscribe link that needs no
 * sign-in, plain-text notification snippets, and the rough edges (favicon,
 * paged titles and canonicals, reading time, view counts, the reset page,
 * the captcha button, page languages with the seed's Chinese titles).
 */
import sharp from 'sharp'
import pg from 'pg'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { logIn, page as fetchPage } from '../helpers/http'
import { recipient, smtpEnv, startInbox, type Inbox } from '../helpers/smtp'
import { waitUntil } from '../helpers/waitUntil'
import { LoginPage } from './pages/AccountPages'
import { ArticlePage } from './pages/ArticlePage'

type Row = { id: number; slug: string; title: string }
let app: RunningApp
let browser: Browser
let inbox: Inbox
let db: pg.Client
let article: Row // by Ada Author
let chinese: Row
const contexts: BrowserContext[] = []
const DESKTOP = { width: 1280, height: 900 }
const PHONE = { width: 390, height: 844 }

async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query(text, params)).rows as T[]
}

beforeAll(async () => {
  inbox = await startInbox()
  ;[app, browser] = await Promise.all([startApp(smtpEnv(inbox)), launchBrowser()])
  db = new pg.Client({ connectionString: app.databaseUrl })
  db.on('error', () => {})
  await db.connect()
  ;[article] = await sql<Row>(
    `select a.id, a.slug, a.title from articles a join users u on u.id = a.author_id
      where u.email = 'author@inkwell.test' and a.status = 'published' order by a.id limit 1`,
  )
  ;[chinese] = await sql<Row>(`select id, slug, title from articles where language = 'zh-CN' and status = 'published' order by id limit 1`)
})
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {})
  await browser?.close()
  await db?.end()
  await app?.stop()
  await inbox?.stop()
})

async function signedIn(email: string, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport })
  contexts.push(context)
  const page = await context.newPage()
  const login = new LoginPage(page, app.url)
  await login.open()
  await login.signIn(email, 'inkwell-demo')
  return page
}

async function anonymous(viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport })
  contexts.push(context)
  return context.newPage()
}

const articlePath = (a: Row) => `/articles/${a.id}/${a.slug}`

async function uploadAvatar(email: string) {
  const { token } = await logIn(app.url, email)
  const png = await sharp({ create: { width: 120, height: 120, channels: 3, background: { r: 30, g: 120, b: 200 } } }).png().toBuffer()
  const form = new FormData()
  form.set('type', 'avatar')
  form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png')
  const response = await fetch(`${app.url}/api/accounts/avatar`, { method: 'POST', headers: { authorization: `JWT ${token}` }, body: form })
  expect(response.status).toBeLessThan(300)
}

describe('avatars', () => {
  it('shows a user’s avatar on the article byline, list cards and replies, and a letter for users without one', async () => {
    await uploadAvatar('author@inkwell.test')
    await uploadAvatar('reader7@inkwell.test')
    const reader7 = await signedIn('reader7@inkwell.test')
    const withAvatar = new ArticlePage(reader7, app.url)
    await withAvatar.open(articlePath(article))
    await withAvatar.reply('A reply from someone with a face')
    const ownReply = withAvatar.postedReplyId()
    const other = await signedIn('reader8@inkwell.test')
    const page = new ArticlePage(other, app.url)
    await page.open(articlePath(article))
    await page.reply('A reply from someone without an avatar')
    const plainReply = page.postedReplyId()

    const byline = other.getByTestId('article-byline')
    await expect(byline.locator('img.avatar').getAttribute('src')).resolves.toMatch(/\/api\/media\/file\//)
    await expect(page.reply_(ownReply).locator('.meta img.avatar').count()).resolves.toBe(1)
    await expect(page.reply_(plainReply).locator('.meta [data-testid="avatar-placeholder"]').textContent()).resolves.toBe('R')
    // Every avatar image actually loads.
    const broken = await other.locator('img.avatar').evaluateAll((imgs) => imgs.filter((i) => !(i as HTMLImageElement).complete || (i as HTMLImageElement).naturalWidth === 0).length)
    expect(broken).toBe(0)
    await other.screenshot({ path: 'tests/e2e/.artifacts/issue16-avatars.png' })

    await other.goto(`${app.url}/users/${(await sql<{ id: number }>(`select id from users where email = 'author@inkwell.test'`))[0]!.id}`)
    await expect(other.locator('.card .byline img.avatar').first().getAttribute('src')).resolves.toMatch(/\/api\/media\/file\//)
  })
})

describe('"Write"', () => {
  it('is not offered to a reader, whose account menu has no dead end', async () => {
    const reader = await signedIn('reader1@inkwell.test')
    await expect(reader.getByTestId('account-user').count()).resolves.toBe(1)
    await expect(reader.getByRole('link', { name: 'Write' }).count()).resolves.toBe(0)
  })

  it('opens a new article in the admin for an author', async () => {
    const author = await signedIn('author2@inkwell.test')
    const write = author.getByRole('link', { name: 'Write' })
    await expect(write.getAttribute('href')).resolves.toBe('/admin/collections/articles/create')
    await Promise.all([author.waitForURL(/\/admin\/collections\/articles\/(create|\d+)/), write.click()])
    await author.locator('#field-title').waitFor()
    await expect(author.getByText('Unauthorized').count()).resolves.toBe(0)
  })
})

describe('threaded replies, edited and deleted by their writers', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('answers a reply (indented), edits the answer and deletes it after confirming, at %s size', async (label, viewport) => {
    const asker = new ArticlePage(await signedIn('reader2@inkwell.test', viewport), app.url)
    await asker.open(articlePath(article))
    await asker.reply(`A question (${label})`)
    const questionId = asker.postedReplyId()

    const answererPage = await signedIn('reader3@inkwell.test', viewport)
    const answerer = new ArticlePage(answererPage, app.url)
    await answerer.open(articlePath(article))
    await answerer.answer(questionId, `An **answer** with \`code\` (${label})`)
    const answerId = answerer.postedReplyId()
    // Shown inside the question's thread, indented.
    const nested = answererPage.locator(`#reply-${questionId} .answers #reply-${answerId}`)
    await expect(nested.count()).resolves.toBe(1)
    const indent = await nested.evaluate((el) => el.getBoundingClientRect().left)
    const parentLeft = await answererPage.locator(`#reply-${questionId}`).evaluate((el) => el.getBoundingClientRect().left)
    expect(indent).toBeGreaterThan(parentLeft + 8)
    // An answer to the answer joins the same thread (one level).
    await asker.open(articlePath(article)) // the asker's page predates the answer
    await asker.answer(answerId, `Thanks! (${label})`)
    const thanksId = asker.postedReplyId()
    await answerer.open(articlePath(article))
    await expect(answererPage.locator(`#reply-${questionId} .answers #reply-${thanksId}`).count()).resolves.toBe(1)

    await answerer.edit(answerId, `An edited answer (${label})`)
    await expect(answerer.reply_(answerId).textContent()).resolves.toContain(`An edited answer (${label})`)
    await expect(answerer.reply_(answerId).textContent()).resolves.toContain('edited')
    // Nobody else may edit or delete it: no such buttons on someone else's reply.
    await expect(answerer.reply_(questionId).locator(':scope > .reply-actions [data-testid="edit-link"]').count()).resolves.toBe(0)
    await answererPage.screenshot({ path: `tests/e2e/.artifacts/issue16-thread-${label}.png`, fullPage: true })

    await answerer.delete(answerId, { confirm: false })
    await expect(answerer.reply_(answerId).count()).resolves.toBe(1)
    await Promise.all([answererPage.waitForNavigation(), answerer.reply_(answerId).getByTestId('delete-link').click()])
    await expect(answerer.deleteConfirmation().textContent()).resolves.toContain('Delete this reply?')
    if (label === 'phone') await answererPage.screenshot({ path: 'tests/e2e/.artifacts/issue16-delete-confirmation-phone.png' })
    await Promise.all([answererPage.waitForNavigation(), answererPage.getByRole('button', { name: 'Delete reply' }).click()])
    await expect(answerer.reply_(answerId).count()).resolves.toBe(0)
    const overflow = await answererPage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })

  it('tells the asker with a plain-text snippet, not raw Markdown', async () => {
    // A thread of its own: the answers above are deleted, and their notifications with them.
    const asker = await signedIn('reader2@inkwell.test')
    const question = new ArticlePage(asker, app.url)
    await question.open(articlePath(article))
    await question.reply('A question for the snippet')
    const questionId = question.postedReplyId()
    const answerer = new ArticlePage(await signedIn('reader3@inkwell.test'), app.url)
    await answerer.open(articlePath(article))
    await answerer.answer(questionId, 'An **answer** with `code` (snippet)')
    // The notification is written by a queue job after the answer commits.
    const answered = `select count(*)::int as n from notifications n join users u on u.id = n.recipient_id where u.email = 'reader2@inkwell.test' and n.kind = 'answer'`
    await waitUntil(async () => (await sql<{ n: number }>(answered))[0]!.n > 0, { what: 'the asker’s notification' })
    await asker.goto(`${app.url}/notifications`)
    const snippet = asker.getByTestId('notification').filter({ hasText: 'answered your reply' }).first().getByTestId('notification-snippet')
    await expect(snippet.textContent()).resolves.toMatch(/^An answer with code \(/)
    await asker.screenshot({ path: 'tests/e2e/.artifacts/issue16-notifications.png' })
  })
})

describe('following an article’s replies by e-mail', () => {
  it('follows, mails the next reply with List-Unsubscribe, and unsubscribes from the mail’s link without signing in', async () => {
    const followerPage = await signedIn('reader4@inkwell.test', PHONE)
    const follower = new ArticlePage(followerPage, app.url)
    await follower.open(articlePath(article))
    await expect(follower.followButton().textContent()).resolves.toBe('Follow replies')
    await follower.toggleFollow()
    await expect(follower.followButton().textContent()).resolves.toBe('Stop following')

    const before = inbox.messages.length
    const writer = new ArticlePage(await signedIn('reader5@inkwell.test'), app.url)
    await writer.open(articlePath(article))
    await writer.reply('News for the followers')
    // Mail goes through the queue after the reply commits: it has no event this process can await.
    const mail = await waitUntil(async () => inbox.messages.slice(before).find((m) => recipient(m) === 'reader4@inkwell.test'), { what: 'the follower’s mail' })
    expect(mail.text).toContain('News for the followers')
    expect(mail.headers.find((h) => h.key === 'list-unsubscribe-post')?.value).toBe('List-Unsubscribe=One-Click')
    const link = mail.text!.match(/Stop e-mails about this article: (\S+)/)![1]!
    expect(new URL(link).pathname).toBe('/unsubscribe')

    const stranger = await anonymous(PHONE)
    await stranger.goto(link)
    await expect(stranger.locator('.unsubscribe-page').textContent()).resolves.toContain(article.title)
    await Promise.all([stranger.waitForNavigation(), stranger.getByRole('button', { name: 'Stop e-mails' }).click()])
    await expect(stranger.getByTestId('unsubscribed').textContent()).resolves.toContain('no more e-mails')
    const [{ n }] = await sql<{ n: number }>(`select count(*)::int as n from follows f join users u on u.id = f.follower_id where u.email = 'reader4@inkwell.test'`)
    expect(n).toBe(0)
    await follower.open(articlePath(article))
    await expect(follower.followButton().textContent()).resolves.toBe('Follow replies')

    await stranger.goto(`${app.url}/unsubscribe?token=1.forged`)
    await expect(stranger.getByRole('alert').textContent()).resolves.toContain('not valid')
  })
})

describe('rough edges', () => {
  it('serves a favicon (no 404) and links it from every page', async () => {
    const ico = await fetchPage(app.url, '/favicon.ico')
    expect(ico.status).toBe(301)
    expect(ico.headers.get('location')).toBe('/favicon.svg')
    const svg = await fetch(`${app.url}/favicon.svg`)
    expect(svg.status).toBe(200)
    expect(svg.headers.get('content-type')).toContain('image/svg+xml')
    expect((await fetchPage(app.url, '/')).body).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"')
    const visitor = await anonymous()
    const missing: string[] = []
    visitor.on('response', (r) => r.status() === 404 && missing.push(r.url()))
    await visitor.goto(`${app.url}${articlePath(article)}`, { waitUntil: 'networkidle' })
    expect(missing).toEqual([])
  })

  it('names page 2 of a list in its title and gives it its own canonical URL', async () => {
    for (const [path, canonical] of [
      ['/?page=2', '/?page=2'],
      ['/?sort=replied&page=2', '/?sort=replied&page=2'],
    ]) {
      const { body } = await fetchPage(app.url, path)
      expect(body).toMatch(/<title>[^<]*Page 2[^<]*<\/title>/)
      expect(body).toContain(`<link rel="canonical" href="${app.url}${canonical.replace(/&/g, '&amp;')}"`)
    }
    const first = await fetchPage(app.url, '/')
    expect(first.body).not.toMatch(/<title>[^<]*Page 1/)
    expect(first.body).toContain(`<link rel="canonical" href="${app.url}/"`)
  })

  it('gives the home page the seeded keywords and description', async () => {
    const { body } = await fetchPage(app.url, '/')
    expect(body).toMatch(/<meta name="keywords" content="[^"]*PostgreSQL[^"]*"/)
    expect(body).toMatch(/<meta name="description" content="[^"]+"/)
  })

  it('shows reading time on articles and the article page’s view count on home cards, in the singular for one', async () => {
    expect((await fetchPage(app.url, articlePath(article))).body).toMatch(/data-testid="reading-time"(?: lang="en")?>\d+ min read</)
    const [newest] = await sql<Row>(
      `select id, slug, title from articles where status = 'published' and id <> all($1::int[]) order by published_at desc limit 1`,
      [[article.id, chinese.id]],
    )
    await sql(`update articles set view_count = 0 where id = $1`, [newest!.id])
    const { cookie } = await logIn(app.url, 'reader9@inkwell.test') // signed in: a fresh render, not the cached page
    const cardViews = async () => {
      const { body } = await fetchPage(app.url, '/', { headers: { cookie } })
      const card = body.slice(body.indexOf(`href="${articlePath(newest!)}"`))
      return card.match(/data-testid="card-views">([^<]+)</)![1]
    }
    await expect(cardViews()).resolves.toBe('0 views')
    await fetchPage(app.url, articlePath(newest!), { headers: { 'user-agent': 'Mozilla/5.0 Chrome/120' } })
    await expect(cardViews()).resolves.toBe('1 view')
    // Whether that view was flushed to the database yet or is still pending in memory, the card shows the sum the article page shows.
    await sql(`update articles set view_count = view_count + 1 where id = $1`, [newest!.id])
    await expect(cardViews()).resolves.toBe('2 views')
  })

  it('says "Ask for a new one" once on the password-reset page', async () => {
    const visitor = await anonymous()
    await visitor.goto(`${app.url}/password/reset?token=not-a-real-token`)
    await visitor.getByLabel('New password', { exact: true }).fill('a perfectly fine password 123')
    await visitor.getByLabel('New password again').fill('a perfectly fine password 123')
    await Promise.all([visitor.waitForNavigation(), visitor.getByRole('button', { name: 'Set the new password' }).click()])
    const text = (await visitor.locator('[data-field-error="token"]').textContent())!
    expect(text.match(/Ask for a new/g)).toHaveLength(1)
    await expect(visitor.locator('[data-field-error="token"] a').getAttribute('href')).resolves.toBe('/password/forgot')
  })

  it('styles the captcha’s "New picture" button like the site’s buttons', async () => {
    const visitor = await anonymous(PHONE)
    await visitor.goto(`${app.url}/register`)
    const style = await visitor.locator('#captcha-refresh').evaluate((el) => {
      const s = getComputedStyle(el)
      return { radius: s.borderTopLeftRadius, cursor: s.cursor, font: s.fontFamily, body: getComputedStyle(document.body).fontFamily, padding: s.paddingLeft }
    })
    expect(style).toMatchObject({ radius: '8px', cursor: 'pointer' })
    expect(style.font).toBe(style.body)
    expect(parseFloat(style.padding)).toBeGreaterThanOrEqual(10)
    await visitor.locator('.captcha').screenshot({ path: 'tests/e2e/.artifacts/issue16-captcha.png' })
  })

  it('declares each article’s language, and renders the seed’s Chinese titles in a CJK font', async () => {
    // <html lang> is the interface's language (issue 31); the article's own language is on its title and body.
    expect((await fetchPage(app.url, articlePath(article))).body).toMatch(/<div lang="en" class="article-content"/)
    const page = (await fetchPage(app.url, articlePath(chinese))).body
    expect(page).toContain('<html lang="en"')
    expect(page).toMatch(/<div lang="zh-CN" class="article-content"/)
    for (const [label, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const visitor = await anonymous(viewport)
      await visitor.goto(`${app.url}${articlePath(chinese)}`)
      // Every character of the title has a glyph: drawn in the title's font, a Han character is not the
      // missing-glyph box (compared as pixels: a CJK font's box is as wide as its ideographs).
      const fonts = await visitor.evaluate(async (title) => {
        await document.fonts.ready
        const font = getComputedStyle(document.querySelector('#article-title')!).font
        const draw = (ch: string) => {
          const canvas = document.createElement('canvas')
          canvas.width = canvas.height = 96
          const context = canvas.getContext('2d')!
          context.font = font
          context.fillText(ch, 4, 72)
          return canvas.toDataURL()
        }
        return { title: document.querySelector('#article-title')!.textContent, han: draw('索'), tofu: draw('\u{10FFFD}'), matches: title }
      }, chinese.title)
      expect(fonts.title).toBe(chinese.title)
      expect(fonts.han).not.toBe(fonts.tofu)
      await visitor.screenshot({ path: `tests/e2e/.artifacts/issue16-chinese-${label}.png` })
      await visitor.goto(`${app.url}/?page=2`)
      await visitor.screenshot({ path: `tests/e2e/.artifacts/issue16-home-page2-${label}.png`, fullPage: label === 'phone' })
    }
  })
})
