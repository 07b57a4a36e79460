import type { Page } from 'playwright-core'

/** The header's account corner, present on every page of the reader site. */
export class AccountMenu {
  constructor(private page: Page) {}

  userName() {
    return this.page.getByTestId('account-user')
  }

  avatar() {
    return this.page.getByTestId('account-avatar')
  }

  signInLink() {
    return this.page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Sign in' })
  }

  async signOut() {
    await submit(this.page, 'Sign out')
  }
}

/** Clicks a submit button and waits for the page the server answers with (a re-rendered form or a redirect). */
export async function submit(page: Page, button: string) {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.getByRole('button', { name: button }).click()])
}

/** Shared by the account forms: fields by label, per-field errors by name. */
abstract class AccountForm {
  constructor(
    protected page: Page,
    protected baseUrl: string,
  ) {}

  fieldError(name: string) {
    return this.page.locator(`[data-field-error="${name}"]`)
  }

  field(label: string | RegExp) {
    return this.page.getByLabel(label, { exact: typeof label === 'string' })
  }
}

export class RegisterPage extends AccountForm {
  async open() {
    await this.page.goto(`${this.baseUrl}/register`)
  }

  async fill(values: { email: string; name: string; password: string; passwordConfirm?: string; captcha: string }) {
    await this.field('E-mail').fill(values.email)
    await this.field('Name').fill(values.name)
    await this.field('Password').fill(values.password)
    await this.field('Password again').fill(values.passwordConfirm ?? values.password)
    await this.field('Characters in the picture').fill(values.captcha)
  }

  async submit() {
    await submit(this.page, 'Create account')
  }
}

export class LoginPage extends AccountForm {
  async open(next?: string) {
    await this.page.goto(`${this.baseUrl}/login${next ? `?next=${encodeURIComponent(next)}` : ''}`)
  }

  async signIn(email: string, password: string, { remember = false } = {}) {
    await this.field('E-mail').fill(email)
    await this.field('Password').fill(password)
    if (remember) await this.page.getByLabel('Remember me on this device').check()
    await submit(this.page, 'Sign in')
  }
}

export class ProfilePage extends AccountForm {
  async open() {
    await this.page.goto(`${this.baseUrl}/profile`)
  }

  notice() {
    return this.page.getByTestId('notice')
  }

  async saveAbout(name: string, introduction: string) {
    await this.field('Name').fill(name)
    await this.field('Introduction').fill(introduction)
    await submit(this.page, 'Save profile')
  }

  async uploadAvatar(file: { name: string; mimeType: string; buffer: Buffer }) {
    await this.page.getByLabel('Image (JPEG, PNG, WebP or GIF)').setInputFiles(file)
    await submit(this.page, 'Upload avatar')
  }
}

export class ForgotPasswordPage extends AccountForm {
  async request(email: string) {
    await this.page.goto(`${this.baseUrl}/password/forgot`)
    await this.field('E-mail').fill(email)
    await submit(this.page, 'Send the link')
  }

  notice() {
    return this.page.getByTestId('notice')
  }
}

export class ResetPasswordPage extends AccountForm {
  async open(link: string) {
    await this.page.goto(link)
  }

  async choose(password: string) {
    await this.field('New password').fill(password)
    await this.field('New password again').fill(password)
    await submit(this.page, 'Set the new password')
  }
}
