/**
 * Accounts on the reader site, in Chromium against the app started the
 * README's way: register (captcha answer read from the server-side store in
 * the database), sign out and in, edit the profile, upload an avatar, and
 * reset the password through a mail received by a real SMTP server.
 */
import pg from 'pg'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { logIn } from '../helpers/http'
import { smtpEnv, startInbox, type Inbox } from '../helpers/smtp'
import { AdminLoginPage } from './pages/AdminLoginPage'
import { AccountMenu, ForgotPasswordPage, LoginPage, ProfilePage, RegisterPage, ResetPasswordPage, submit } from './pages/AccountPages'

let app: RunningApp
let browser: Browser
let context: BrowserContext
let page: Page
let db: pg.Client
let inbox: Inbox
const nextMail = () => inbox.next()

const EMAIL = 'e2e-reader@example.test'
const PASSWORD = 'first-secret-42'

/** The answer of the captcha this browser holds, from the server-side store (never through the app). */
async function captchaAnswer(): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'inkwell-captcha')
  if (!cookie) throw new Error('the register page set no captcha cookie')
  const { rows } = await db.query<{ answer: string }>('select answer from captcha_challenges where token = $1', [cookie.value])
  return rows[0]!.answer
}

beforeAll(async () => {
  inbox = await startInbox()
  ;[app, browser] = await Promise.all([
    startApp(smtpEnv(inbox)),
    launchBrowser(),
  ])
  db = new pg.Client({ connectionString: app.databaseUrl })
  await db.connect()
  context = await browser.newContext()
  page = await context.newPage()
})
afterAll(async () => {
  await db?.end()
  await browser?.close()
  await app?.stop()
  await inbox?.stop()
})

describe('accounts in the browser', () => {
  it('registers with the image captcha, keeping the fields when the captcha is wrong, and signs the new reader in', async () => {
    const register = new RegisterPage(page, app.url)
    await register.open()
    // A wrong captcha and a mismatched password again: both are reported at once (issue 26 §5).
    await register.fill({ email: EMAIL, name: 'E2E Reader', password: PASSWORD, passwordConfirm: PASSWORD + '!', captcha: (await captchaAnswer()) + 'x' })
    await register.submit()
    await expect(register.fieldError('captcha').textContent()).resolves.toMatch(/do not match/)
    await expect(register.fieldError('passwordConfirm').textContent()).resolves.toMatch(/differ/)
    await expect(register.field('E-mail').inputValue()).resolves.toBe(EMAIL)
    await expect(register.field('Name').inputValue()).resolves.toBe('E2E Reader')

    await register.fill({ email: EMAIL, name: 'E2E Reader', password: PASSWORD, captcha: (await captchaAnswer()).toUpperCase() })
    await register.submit()
    expect(new URL(page.url()).pathname).toBe('/profile')
    await expect(new AccountMenu(page).userName().textContent()).resolves.toContain('E2E Reader')
    const session = (await context.cookies()).find((c) => c.name === 'payload-token')
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' })
  })

  it('signs out, and signs in again returning to the page asked for', async () => {
    const menu = new AccountMenu(page)
    await menu.signOut()
    await menu.signInLink().waitFor()
    expect((await context.cookies()).some((c) => c.name === 'payload-token')).toBe(false)

    const login = new LoginPage(page, app.url)
    await login.open('https://evil.test')
    await login.signIn(EMAIL, 'wrong-password')
    await expect(login.fieldError('form').textContent()).resolves.toMatch(/incorrect/)
    await expect(login.field('E-mail').inputValue()).resolves.toBe(EMAIL)
    await login.signIn(EMAIL, PASSWORD)
    expect(page.url()).toBe(`${app.url}/`)

    await menu.signOut()
    await login.open('/profile')
    await login.signIn(EMAIL, PASSWORD, { remember: true })
    expect(new URL(page.url()).pathname).toBe('/profile')
  })

  it('edits the profile', async () => {
    const profile = new ProfilePage(page, app.url)
    await profile.open()
    await profile.saveAbout('Ada E2E', 'I read <b>everything</b>.')
    await expect(profile.notice().textContent()).resolves.toMatch(/profile is saved/)
    await expect(profile.field('Introduction').inputValue()).resolves.toBe('I read <b>everything</b>.')
    await expect(new AccountMenu(page).userName().textContent()).resolves.toContain('Ada E2E')
  })

  it('uploads an avatar and shows it in the header', async () => {
    const profile = new ProfilePage(page, app.url)
    const buffer = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#aa3366' } }).png().toBuffer()
    await profile.uploadAvatar({ name: 'me.gif', mimeType: 'image/gif', buffer })
    await expect(profile.notice().textContent()).resolves.toMatch(/avatar is saved/)
    const avatar = new AccountMenu(page).avatar()
    await avatar.waitFor()
    const src = (await avatar.getAttribute('src'))!
    expect(src).toMatch(/\.png$|-96x96\.png$/)
    expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96)
    const served = await fetch(new URL(src, app.url))
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')

    await profile.uploadAvatar({ name: 'page.png', mimeType: 'image/png', buffer: Buffer.from('<html><script>alert(1)</script></html>') })
    await expect(profile.fieldError('file').textContent()).resolves.toMatch(/JPEG, PNG, WebP or GIF/)
  })

  it('resets the password through the link in the mail', async () => {
    await new AccountMenu(page).signOut()
    const arriving = nextMail()
    const forgot = new ForgotPasswordPage(page, app.url)
    await forgot.request(EMAIL)
    await expect(forgot.notice().textContent()).resolves.toMatch(/If an account uses this address/)
    const mail = await arriving
    expect(mail.to?.[0]?.address).toBe(EMAIL)
    const link = mail.text!.match(/https?:\/\/\S+\/password\/reset\?token=\S+/)![0]
    expect(link.startsWith(app.url)).toBe(true)

    const reset = new ResetPasswordPage(page, app.url)
    await reset.open(link)
    await reset.choose('second-secret-42')
    await expect(new AccountMenu(page).userName().textContent()).resolves.toContain('Ada E2E')

    await new AccountMenu(page).signOut()
    const login = new LoginPage(page, app.url)
    await login.open()
    await login.signIn(EMAIL, 'second-secret-42')
    await expect(new AccountMenu(page).userName().textContent()).resolves.toContain('Ada E2E')
  })

  it('refuses cross-site form posts to the site and ignores the session cookie on cross-site API posts', async () => {
    const astro = await fetch(`${app.url}/login`, {
      method: 'POST',
      headers: { origin: 'http://evil.test', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: EMAIL, password: 'second-secret-42' }),
      redirect: 'manual',
    })
    expect(astro.status).toBe(403)
    expect(astro.headers.getSetCookie()).toEqual([])

    const session = (await context.cookies()).find((c) => c.name === 'payload-token')!
    const api = await fetch(`${app.url}/api/accounts/profile`, {
      method: 'POST',
      headers: { origin: 'http://evil.test', cookie: `payload-token=${session.value}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Forged' }),
    })
    // Refused by the account endpoints' cross-site rule before the session is looked at.
    expect(api.status).toBe(403)
    const own = await fetch(`${app.url}/api/users/me`, { headers: { origin: app.url, cookie: `payload-token=${session.value}` } })
    expect(((await own.json()) as { user: { name: string } }).user.name).toBe('Ada E2E')
  })

  it('with REGISTER_VERIFY_EMAIL=true, confirms the address through the mailed link before signing in', async () => {
    const verifying = await startApp({ ...smtpEnv(inbox), REGISTER_VERIFY_EMAIL: 'true', SEED_ON_START: 'false' })
    const ctx = await browser.newContext()
    const p = await ctx.newPage()
    const store = new pg.Client({ connectionString: verifying.databaseUrl })
    await store.connect()
    try {
      const register = new RegisterPage(p, verifying.url)
      await register.open()
      const token = (await ctx.cookies()).find((c) => c.name === 'inkwell-captcha')!.value
      const { rows } = await store.query<{ answer: string }>('select answer from captcha_challenges where token = $1', [token])
      const arriving = nextMail()
      await register.fill({ email: 'confirm-me@example.test', name: 'Confirm Me', password: PASSWORD, captcha: rows[0]!.answer })
      await register.submit()
      await expect(p.getByTestId('notice').textContent()).resolves.toMatch(/open the link we mailed/)
      const link = (await arriving).text!.match(/https?:\/\/\S+\/verify-email\?token=\S+/)![0]

      const login = new LoginPage(p, verifying.url)
      await login.open()
      await login.signIn('confirm-me@example.test', PASSWORD)
      await expect(login.fieldError('form').textContent()).resolves.toMatch(/Confirm your e-mail address first/)

      await p.goto(link)
      await submit(p, 'Confirm my e-mail address')
      await expect(p.getByTestId('notice').textContent()).resolves.toMatch(/confirmed/)
      await login.open()
      await login.signIn('confirm-me@example.test', PASSWORD)
      await expect(new AccountMenu(p).userName().textContent()).resolves.toContain('Confirm Me')
    } finally {
      await store.end()
      await ctx.close()
      await verifying.stop()
    }
  })

  it('asks for the current password in a masked admin field, and changes the password in the admin only with it', async () => {
    const ctx = await browser.newContext()
    const p = await ctx.newPage()
    try {
      await new AdminLoginPage(p, app.url).signInAs('author@inkwell.test')
      await p.goto(`${app.url}/admin/account`)
      const current = p.locator('input[name="currentPassword"]')
      await current.waitFor()
      expect(await current.getAttribute('type')).toBe('password')
      expect(await current.getAttribute('autocomplete')).toBe('current-password')
      // The user's own e-mail is readable to them in the admin (it was empty, and every save was refused as an invalid address).
      expect(await p.locator('input[name="email"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['author@inkwell.test'])

      // The password inputs appear once the (hydrated) button is clicked: a click before hydration does nothing, so click until they show.
      const newPassword = p.locator('input[name="password"]')
      await expect
        .poll(async () => {
          if (!(await newPassword.isVisible())) await p.getByRole('button', { name: 'Change Password' }).click().catch(() => {})
          return newPassword.isVisible()
        }, { timeout: 30_000 })
        .toBe(true)
      // Typing sends the form's state to the server (a debounced round trip); a Save clicked while that is
      // under way is dropped by the admin, as with a person's click in that moment. Wait for the answer to each
      // field's change, then save.
      const type = async (input: Locator, value: string) => {
        const formState = p.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/admin/account')
        await input.fill(value)
        await formState
      }
      const typeCurrentPassword = (value: string) => type(current, value)
      const NEW_PASSWORD = 'admin-changed-secret-7'
      await type(newPassword, NEW_PASSWORD)
      await type(p.locator('input[name="confirm-password"]'), NEW_PASSWORD)
      const save = async () => {
        const answer = p.waitForResponse((r) => r.request().method() === 'PATCH' && /\/api\/users\/\d+/.test(new URL(r.url()).pathname))
        await p.locator('#action-save').click()
        return (await answer).status()
      }
      await typeCurrentPassword('not-my-password-99')
      expect(await save()).toBe(400)
      await p.getByText('Enter your current password to change your e-mail or password.').first().waitFor()
      await expect(logIn(app.url, 'author@inkwell.test', NEW_PASSWORD)).rejects.toThrow(/401/)

      await typeCurrentPassword('inkwell-demo')
      expect(await save()).toBe(200)
      await expect(logIn(app.url, 'author@inkwell.test', NEW_PASSWORD)).resolves.toHaveProperty('token')
    } finally {
      await ctx.close()
    }
  })
})
