import type { Page } from 'playwright-core'

import type { Period } from '../../../src/plugins/dashboard/queries'

/** The statistics block at the top of the admin home, and its link in the admin navigation. */
export class DashboardPage {
  constructor(private page: Page) {}

  navLink() {
    return this.page.getByTestId('nav-dashboard')
  }

  root() {
    return this.page.getByTestId('dashboard')
  }

  chart(id: string) {
    return this.page.getByTestId(`dashboard-chart-${id}`)
  }

  summary(id: string) {
    return this.page.getByTestId(`dashboard-summary-${id}`)
  }

  /** The drawn curve of a line chart's first series (its SVG path). */
  curve(id: string) {
    return this.chart(id).locator('path.recharts-line-curve').first()
  }

  /** Waits until the data for the period is shown and every chart has drawn its SVG. */
  async waitForCharts(period: Period) {
    await this.page.locator(`[data-testid="dashboard"][data-period="${period}"][aria-busy="false"]`).waitFor()
    for (const id of ['activity', 'views', 'categories', 'tags', 'article-views']) {
      await this.chart(id).locator('svg.recharts-surface').first().waitFor()
    }
    await this.curve('activity').waitFor()
  }

  async choose(period: Period) {
    await this.page.getByTestId(`dashboard-period-${period}`).click()
    await this.waitForCharts(period)
  }

  /** The chart's table view: its body rows (then back to the chart). */
  async tableRows(id: string): Promise<string[]> {
    const chart = this.chart(id)
    await chart.getByRole('button', { name: 'Show table' }).click()
    const rows = await chart.locator('tbody tr').allTextContents()
    await chart.getByRole('button', { name: 'Show chart' }).click()
    await chart.locator('svg.recharts-surface').first().waitFor()
    return rows
  }
}
