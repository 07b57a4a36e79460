import type { Page } from 'playwright-core'

/** The admin's import page (/admin/import), its form, progress bar and report, and its link in the navigation. */
export class ImportPage {
  constructor(
    private page: Page,
    private baseUrl: string,
  ) {}

  navLink() {
    return this.page.getByTestId('nav-import')
  }

  async open() {
    await this.page.goto(`${this.baseUrl}/admin/import`)
    await this.page.getByTestId('import-form').waitFor()
  }

  /** Chooses the export (a file on disk) and the options, then starts the import. */
  async upload(file: string, options: { siteOwner?: string; pagesCategory?: string; skipMedia?: boolean; dryRun?: boolean } = {}) {
    const form = this.page.getByTestId('import-form')
    await form.locator('input[name="file"]').setInputFiles(file)
    if (options.siteOwner) await form.locator('input[name="siteOwner"]').fill(options.siteOwner)
    if (options.pagesCategory) await form.locator('input[name="pagesCategory"]').fill(options.pagesCategory)
    if (options.skipMedia) await form.locator('input[name="skipMedia"]').check()
    if (options.dryRun) await form.locator('input[name="dryRun"]').check()
    await this.page.getByTestId('import-start').click()
  }

  progress() {
    return this.page.getByTestId('import-progress')
  }

  progressBar() {
    return this.page.locator('progress#import-progress-bar')
  }

  progressText() {
    return this.page.getByTestId('import-progress-text')
  }

  error() {
    return this.page.getByTestId('import-error')
  }

  report() {
    return this.page.getByTestId('import-report')
  }

  count(kind: string) {
    return this.page.getByTestId(`import-count-${kind}`)
  }
}
