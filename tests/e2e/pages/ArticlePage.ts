import type { Page } from 'playwright-core'

import { submit } from './AccountPages'

/** An article page: its replies (threads one level deep), what a reader may do with them, and the reply form. */
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

  /** The id of the reply the page was redirected to after posting. */
  postedReplyId(): string {
    return new URL(this.page.url()).hash.replace('#reply-', '')
  }

  /** "Reply" under a reply, then the answer form. */
  async answer(id: number | string, text: string) {
    await Promise.all([this.page.waitForNavigation(), this.reply_(id).getByTestId('answer-link').first().click()])
    await this.page.getByLabel(/^Answer .+ as /).fill(text)
    await submit(this.page, 'Post reply')
  }

  async edit(id: number | string, text: string) {
    await Promise.all([this.page.waitForNavigation(), this.reply_(id).getByTestId('edit-link').first().click()])
    await this.page.getByLabel('Edit your reply').fill(text)
    await submit(this.page, 'Save changes')
  }

  /** "Delete", then the confirmation's own button (or "Keep it" when `confirm` is false). */
  async delete(id: number | string, { confirm = true } = {}) {
    await Promise.all([this.page.waitForNavigation(), this.reply_(id).getByTestId('delete-link').first().click()])
    if (confirm) await submit(this.page, 'Delete reply')
    else await Promise.all([this.page.waitForNavigation(), this.page.getByRole('link', { name: 'Keep it' }).click()])
  }

  deleteConfirmation() {
    return this.page.getByTestId('delete-confirmation')
  }

  followButton() {
    return this.page.getByTestId('follow-button')
  }

  async toggleFollow() {
    await Promise.all([this.page.waitForNavigation(), this.followButton().click()])
  }
}
