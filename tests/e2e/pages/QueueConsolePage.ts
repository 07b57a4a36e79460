import type { Page } from 'playwright-core'

/** The queue console admin view, and its link in the admin navigation. */
export class QueueConsolePage {
  constructor(
    private page: Page,
    private baseUrl: string,
  ) {}

  navLink() {
    return this.page.getByTestId('nav-queue-console')
  }

  console() {
    return this.page.getByTestId('queue-console')
  }

  async open() {
    return this.page.goto(`${this.baseUrl}/admin/queues`)
  }
}
