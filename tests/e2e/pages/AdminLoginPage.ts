import type { Page } from 'playwright-core'

/** Payload's admin login screen. */
export class AdminLoginPage {
  constructor(
    private page: Page,
    private baseUrl: string,
  ) {}

  async open() {
    await this.page.goto(`${this.baseUrl}/admin/login`)
    await this.page.locator('input[name="email"]').waitFor()
  }

  async logIn(email: string, password: string) {
    await this.page.locator('input[name="email"]').fill(email)
    await this.page.locator('input[name="password"]').fill(password)
    await this.page.locator('button[type="submit"]').click()
  }

  /** Opens the login screen, signs in and waits for the admin home. */
  async signInAs(email: string, password = 'inkwell-demo') {
    await this.open()
    await this.logIn(email, password)
    await this.page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/')
  }
}
