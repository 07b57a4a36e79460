import type { Page } from 'playwright-core'

/** The reader site's home page. */
export class HomePage {
  constructor(
    private page: Page,
    private baseUrl: string,
  ) {}

  async open() {
    return this.page.goto(`${this.baseUrl}/`)
  }

  articleLinks() {
    return this.page.locator('.article-list h2 a')
  }
}
