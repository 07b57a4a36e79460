import type { Locator, Page } from 'playwright-core'

/** A file handed to the page: drag-and-drop and clipboard events carry real File objects built from these bytes. */
export type FilePayload = { name: string; type: string; base64: string }

/** The article edit screen of the admin, with the Markdown editor and the rich-text editor. */
export class ArticleEditorPage {
  constructor(
    private page: Page,
    private baseUrl: string,
  ) {}

  async create() {
    await this.page.goto(`${this.baseUrl}/admin/collections/articles/create`)
    await this.page.locator('#field-title').waitFor()
  }

  async setTitle(title: string) {
    await this.page.locator('#field-title').fill(title)
  }

  /**
   * Chooses the body's format; on an article that has a body, confirms the
   * switch ("Switch and convert"). Waits for the chosen format's editor.
   */
  async chooseFormat(label: 'Markdown' | 'HTML (rich text)') {
    await this.clickFormat(label)
    const confirm = this.page.getByRole('button', { name: 'Switch and convert' })
    const editor = label === 'Markdown' ? this.source : this.richText
    // The rich-text editor's bundle is large: a loaded machine takes a while to fetch and run it.
    await Promise.race([confirm.waitFor({ timeout: 90_000 }).then(() => confirm.click()), editor.waitFor({ timeout: 90_000 })])
    await editor.waitFor({ timeout: 90_000 })
  }

  /** Clicks a format's radio once the field is interactive; waits for nothing else. */
  async clickFormat(label: 'Markdown' | 'HTML (rich text)') {
    // The field is server-rendered before React hydrates it; a radio clicked before
    // then flips natively but never reaches the form state: wait for the field's own mark.
    await this.page.locator('.format-field[data-live="true"]').waitFor()
    const radio = this.page.getByRole('radio', { name: label })
    // A click, not check(): on an article with a body the radio stays as it is until the switch is confirmed.
    if (!(await radio.isChecked())) await radio.click()
  }

  // --- Markdown editor ---------------------------------------------------------
  get markdownEditor(): Locator {
    return this.page.locator('.markdown-editor')
  }

  get source(): Locator {
    return this.markdownEditor.locator('.cm-content')
  }

  get preview(): Locator {
    return this.markdownEditor.locator('.markdown-preview')
  }

  tool(name: string): Locator {
    return this.markdownEditor.getByRole('button', { name, exact: true })
  }

  /** Pastes plain text at the cursor, the way a writer pastes a draft (no auto-closing of brackets). */
  async pasteText(text: string) {
    await this.source.click()
    await this.source.evaluate((el, value) => {
      const data = new DataTransfer()
      data.setData('text/plain', value)
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
    }, text)
  }

  /** Pastes a file from the clipboard (a screenshot) at the cursor. */
  async pasteFile(file: FilePayload) {
    await this.source.evaluate((el, f) => {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))
      const data = new DataTransfer()
      data.items.add(new File([bytes], f.name, { type: f.type }))
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
    }, file)
  }

  /** Drags a file from the desktop and drops it onto the editor's text. */
  async dropFile(file: FilePayload) {
    await this.source.evaluate((el, f) => {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))
      const data = new DataTransfer()
      data.items.add(new File([bytes], f.name, { type: f.type }))
      const box = el.getBoundingClientRect()
      const at = { clientX: box.left + 10, clientY: box.top + 10, bubbles: true, cancelable: true, dataTransfer: data }
      el.dispatchEvent(new DragEvent('dragenter', at))
      el.dispatchEvent(new DragEvent('dragover', at))
      el.dispatchEvent(new DragEvent('drop', at))
    }, file)
  }

  /** Whether a click at the element's centre would reach it (nothing of the page lies on top). */
  async isTopmost(locator: Locator): Promise<boolean> {
    return locator.evaluate((el) => {
      const box = el.getBoundingClientRect()
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      return !!hit && (hit === el || el.contains(hit))
    })
  }

  async sourceText(): Promise<string> {
    return this.source.evaluate((el) => [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'))
  }

  // --- Saving -------------------------------------------------------------------------
  // Articles keep drafts (src/plugins/drafts): the editor autosaves a draft while one types, and
  // "Publish changes" (#action-save) puts the article and its changes live.

  /** Publishes (the admin's "Publish changes") and returns the article's id from the edit URL. */
  async publish(): Promise<number> {
    const saved = this.articleSaved('publish')
    await this.page.locator('#action-save').click()
    await saved
    await this.page.waitForURL(/\/admin\/collections\/articles\/\d+/)
    return Number(/articles\/(\d+)/.exec(this.page.url())![1])
  }

  /**
   * The next successful save of an article (POST or PATCH to /api/articles), resolved with the stored article:
   * a publish, a draft saved by hand (Ctrl+S), an autosave, or any of them.
   */
  async articleSaved(kind: 'publish' | 'draft' | 'autosave' | 'any' = 'any'): Promise<{ id: number; content: unknown; markdown: string | null; format: string; title: string }> {
    const response = await this.page.waitForResponse((r) => {
      const url = new URL(r.url())
      if (!/^\/api\/articles(\/\d+)?$/.test(url.pathname) || !['POST', 'PATCH'].includes(r.request().method())) return false
      const draft = url.searchParams.get('draft') === 'true'
      const autosave = url.searchParams.get('autosave') === 'true'
      return kind === 'any' || (kind === 'publish' ? !draft : kind === 'autosave' ? autosave : draft && !autosave)
    })
    const body = await response.json()
    if (!response.ok()) throw new Error(`Save failed (${response.status()}): ${JSON.stringify(body)}`)
    return body.doc
  }

  // --- Rich-text editor ----------------------------------------------------------------
  get richText(): Locator {
    return this.page.locator('.rich-text-lexical .ContentEditable__root').first()
  }

  /**
   * Types into the code block's source, then awaits what carries it into the
   * document: the block's form-state round trip to the server, and the idle
   * callback in which the rich-text field takes the editor's new state.
   */
  async fillCodeBlock(code: string, marker: string) {
    const synced = this.page.waitForResponse(
      (r) => r.request().method() === 'POST' && !!r.request().postData()?.includes(marker),
      // A server round trip: on a loaded machine it can take longer than the default 30 s.
      { timeout: 90_000 },
    )
    await this.page.locator('.code-block-source textarea').first().fill(code)
    await synced
    await this.page.evaluate(
      () => new Promise<void>((resolve) => requestAnimationFrame(() => requestIdleCallback(() => requestIdleCallback(() => resolve())))),
    )
  }

  /** Runs a slash command ("/code", "/table", …) at the cursor. */
  async slashCommand(query: string, option: RegExp) {
    await this.page.keyboard.type('/' + query)
    await this.page.locator('.slash-menu-popup__item', { hasText: option }).first().click()
  }
}
