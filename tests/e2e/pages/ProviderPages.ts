/** Page objects for sign-in through a provider: the site's buttons, and the providers' own login and consent pages. */
import type { Page } from 'playwright-core'

export class ProviderButtons {
  constructor(private page: Page) {}

  buttons() {
    return this.page.getByTestId('provider-buttons').getByRole('link')
  }

  button(label: string) {
    return this.page.getByTestId('provider-buttons').getByRole('link', { name: `Sign in with ${label}` })
  }

  oauthError() {
    return this.page.getByTestId('oauth-error')
  }
}

/** oidc-provider's own login and consent pages (its development interactions). */
export class OidcProviderPages {
  constructor(private page: Page) {}

  async signIn(login: string, password: string) {
    await this.page.locator('input[name=login]').fill(login)
    await this.page.locator('input[name=password]').fill(password)
    await this.page.locator('button[type=submit]').click()
  }

  async consent() {
    await this.page.getByRole('button', { name: 'Continue' }).click()
  }
}

/** The plain OAuth 2.0 test server's combined login and consent page. */
export class PlainProviderPage {
  constructor(private page: Page) {}

  async authorize(username: string, password: string) {
    await this.page.getByLabel('Username').fill(username)
    await this.page.getByLabel('Password').fill(password)
    await this.page.getByRole('button', { name: 'Authorize' }).click()
  }

  async deny() {
    await this.page.getByRole('button', { name: 'Deny' }).click()
  }
}
