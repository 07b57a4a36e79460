import type { Page } from 'playwright-core'

import { submit } from './AccountPages'

/** An article page: its replies and the reply form. */
export class ArticlePage {
  constructor(
    private page: Page,
    private baseUrl: string,
  ) {}

  async open(path: string) {
    await this.page.goto(this.baseUrl + path)
  }

  async reply(text: string) {
    await this.page.getByLabel(/^Reply as /).fill(text)
    await submit(this.page, 'Post reply')
  }

  replyError() {
    return this.page.locator('#reply-error')
  }

  reply_(id: number | string) {
    return this.page.locator(`#reply-${id}`)
  }
}
