import type { Page } from 'playwright-core'

/** The header search box and the /search page, as a visitor uses them. */
export class SearchPage {
  constructor(
    private page: Page,
    private baseUrl: string,
  ) {}

  async searchFromHeader(query: string) {
    await this.page.goto(`${this.baseUrl}/`)
    const box = this.page.getByRole('search').first().getByLabel('Search articles')
    await box.fill(query)
    await Promise.all([this.page.waitForURL(/\/search\?/), box.press('Enter')])
  }

  async filterByCategory(name: string) {
    await this.page.getByLabel('Category').selectOption({ label: name })
    await Promise.all([this.page.waitForURL(/category=/), this.page.locator('.search-form button[type=submit]').click()])
  }

  resultTitles() {
    return this.page.locator('.search-results .card-title').allTextContents()
  }

  highlights() {
    return this.page.locator('.search-results mark').allTextContents()
  }

  headerQuery() {
    return this.page.getByLabel('Search articles').inputValue()
  }

  pageQuery() {
    return this.page.getByLabel('Search for').inputValue()
  }
}
