import type { Page } from 'playwright-core'

/** The debug-only user switcher, on the reader site and in the admin header: the picker and the banner. */
export class UserSwitcher {
  constructor(private page: Page) {}

  panel() {
    return this.page.getByTestId('user-switch-panel')
  }

  banner() {
    return this.page.getByTestId('user-switch-banner')
  }

  /** Picks the user whose option mentions `who` and switches; resolves once the page shows the banner. */
  async switchTo(who: string) {
    const select = this.page.getByTestId('user-switch-select')
    const value = await select.locator('option', { hasText: who }).getAttribute('value')
    await select.selectOption(value!)
    await Promise.all([this.page.waitForNavigation({ waitUntil: 'load' }), this.panel().getByRole('button', { name: 'Switch' }).click()])
    await this.banner().waitFor()
  }

  async switchBack() {
    await Promise.all([this.page.waitForNavigation({ waitUntil: 'load' }), this.page.getByTestId('user-switch-back').click()])
    await this.panel().waitFor()
  }
}
