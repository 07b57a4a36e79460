import type { Page } from 'playwright-core'

/** The reader site, as a visitor clicks through it. */
export class ReaderSite {
  constructor(
    private page: Page,
    private baseUrl: string,
  ) {}

  async openHome() {
    return this.page.goto(`${this.baseUrl}/`)
  }

  heading() {
    return this.page.locator('main h1').first()
  }

  async openFirstCategory(): Promise<string> {
    const link = this.page.locator('nav[aria-label="Categories"] a[href^="/categories/"]').first()
    const name = (await link.textContent())!.trim()
    await Promise.all([this.page.waitForURL(/\/categories\//), link.click()])
    return name
  }

  async openFirstArticle(): Promise<string> {
    const link = this.page.locator('.article-list .card-title a').first()
    const title = (await link.textContent())!.trim()
    await Promise.all([this.page.waitForURL(/\/articles\/\d+\//), link.click()])
    return title
  }

  async openFirstTag(): Promise<string> {
    const link = this.page.locator('article .tags a').first()
    const name = (await link.textContent())!.trim()
    await Promise.all([this.page.waitForURL(/\/tags\//), link.click()])
    return name
  }

  async openFirstAuthor(): Promise<string> {
    const link = this.page.locator('.article-list .meta a[href^="/users/"]').first()
    // The name, without the avatar's letter placeholder (decorative, aria-hidden) beside it.
    const name = await link.evaluate((a) =>
      [...a.childNodes]
        .filter((n) => !(n instanceof Element && n.getAttribute('aria-hidden') === 'true'))
        .map((n) => n.textContent)
        .join('')
        .trim(),
    )
    await Promise.all([this.page.waitForURL(/\/users\/\d+/), link.click()])
    return name
  }
}
