/**
 * Issue 34 in Chromium: autosave in both editors survives a closed tab; a
 * change to a published article stays a draft (readers keep the published
 * page) until it is published; the admin's Preview button opens the draft on
 * the reader site (noindex, no-store, only with its signed link); an older
 * version is restored from the history; the live preview beside the editor
 * follows what is typed.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { AdminLoginPage } from './pages/AdminLoginPage'
import { ArticleEditorPage } from './pages/ArticleEditorPage'

let app: RunningApp
let browser: Browser
let context: BrowserContext

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startApp(), launchBrowser()])
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } })
  const page = await context.newPage()
  await new AdminLoginPage(page, app.url).signInAs('author@inkwell.test')
  await page.close()
})
afterAll(async () => {
  if (process.env.E2E_DEBUG) console.log(app?.output().slice(-5000))
  await browser?.close()
  await app?.stop()
})

/** A new tab on the article's edit screen. */
async function reopen(id: number): Promise<{ page: Page; editor: ArticleEditorPage }> {
  const page = await context.newPage()
  await page.goto(`${app.url}/admin/collections/articles/${id}`)
  await page.locator('#field-title').waitFor()
  return { page, editor: new ArticleEditorPage(page, app.url) }
}

/** The public page's text, or its status when it is not there. */
async function publicText(page: Page, id: number): Promise<string> {
  const response = await page.goto(`${app.url}/articles/${id}/-`)
  if (response?.status() !== 200) return `status ${response?.status()}`
  return page.locator('article').innerText()
}

describe('autosave', () => {
  it('keeps what was typed in the Markdown editor when the tab is closed', async () => {
    const page = await context.newPage()
    const editor = new ArticleEditorPage(page, app.url)
    await editor.create()
    await editor.setTitle('Autosaved Markdown')
    await editor.chooseFormat('Markdown')
    const saved = editor.articleSaved('autosave')
    await editor.pasteText('Words typed and never saved by hand.')
    const id = (await saved).id
    await page.close()

    const again = await reopen(id)
    await again.editor.source.waitFor()
    await expect(again.editor.sourceText()).resolves.toContain('Words typed and never saved by hand.')
    await expect(again.page.locator('#field-title').inputValue()).resolves.toBe('Autosaved Markdown')
    await again.page.close()
  })

  it('keeps what was typed in the rich-text editor when the tab is closed', async () => {
    const page = await context.newPage()
    const editor = new ArticleEditorPage(page, app.url)
    await editor.create()
    await editor.setTitle('Autosaved rich text')
    await editor.chooseFormat('HTML (rich text)')
    await editor.richText.click()
    // The autosave that carries the typed words (the field takes the editor's state when the browser is idle).
    const saved = page.waitForResponse(
      (r) => r.url().includes('autosave=true') && !!r.request().postData()?.includes('Rich words never saved by hand'),
      { timeout: 60_000 },
    )
    await page.keyboard.type('Rich words never saved by hand.')
    const id = (await (await saved).json()).doc.id as number
    await page.close()

    const again = await reopen(id)
    await again.editor.richText.locator('p', { hasText: 'Rich words never saved by hand.' }).waitFor({ timeout: 90_000 })
    await again.page.close()
  })
})

describe('a change to a published article', () => {
  it('stays a draft readers do not see, opens in the preview, goes live when published, and an older version can be restored', async () => {
    const page = await context.newPage()
    const editor = new ArticleEditorPage(page, app.url)
    await editor.create()
    await editor.setTitle('Versions in the browser')
    await editor.chooseFormat('Markdown')
    await editor.pasteText('First published words.\n\n```python\nprint("first")\n```\n')
    const id = await editor.publish()
    const reader = await context.browser()!.newPage()
    expect(await publicText(reader, id)).toContain('First published words.')

    // Edited and autosaved: the public page keeps the published text.
    const autosaved = editor.articleSaved('autosave')
    await page.keyboard.press('Control+End')
    await editor.pasteText('\nSecond words, a draft.\n')
    expect((await autosaved).markdown).toContain('Second words, a draft.')
    const publicBefore = await publicText(reader, id)
    expect(publicBefore).toContain('First published words.')
    expect(publicBefore).not.toContain('Second words')

    // Preview: a new tab with the draft on the reader site, laid out like the article page.
    const [preview] = await Promise.all([context.waitForEvent('page'), page.locator('#preview-button').click()])
    await preview.waitForURL((url) => url.pathname === `/preview/${id}` && url.searchParams.has('token'))
    await preview.locator('article .body', { hasText: 'Second words, a draft.' }).waitFor()
    // The same link fetched again: its headers (from a client without the editor's session).
    const answer = await reader.request.get(preview.url())
    expect(answer.status()).toBe(200)
    expect(answer.headers()['x-robots-tag']).toContain('noindex')
    expect(answer.headers()['cache-control']).toContain('no-store')
    expect(answer.headers()['x-cache']).not.toBe('HIT')
    await preview.locator('article .body pre.shiki.language-python').waitFor()
    await expect(preview.locator('meta[name="robots"]').getAttribute('content')).resolves.toBe('noindex')
    const previewUrl = new URL(preview.url())
    // Without its token, or with another article's, the link shows nothing.
    const bare = await reader.goto(`${app.url}/preview/${id}`)
    expect(bare?.status()).toBe(404)
    expect(await reader.locator('body').innerText()).not.toContain('Second words')
    const elsewhere = await reader.goto(`${app.url}/preview/${id + 1000}${previewUrl.search}`)
    expect(elsewhere?.status()).toBe(404)
    await preview.close()

    // Published: the public page shows the change.
    await page.bringToFront()
    await editor.publish()
    expect(await publicText(reader, id)).toContain('Second words, a draft.')

    // The history lists the versions; the first published one is restored.
    await page.goto(`${app.url}/admin/collections/articles/${id}/versions`)
    // Read the way the admin reads them: a same-origin fetch with the editor's session.
    const versions = (await page.evaluate(async (url) => (await (await fetch(url, { credentials: 'include' })).json()).docs, `/api/articles/versions?where[parent][equals]=${id}&sort=createdAt&depth=0&limit=100`)) as {
      id: number
      version: { _status: string; markdown: string }
    }[]
    const first = versions.find((v) => v.version._status === 'published' && !v.version.markdown.includes('Second words'))!
    await page.locator(`a[href$="/versions/${first.id}"]`).first().waitFor()
    await page.goto(`${app.url}/admin/collections/articles/${id}/versions/${first.id}`)
    await page.getByRole('button', { name: /Restore/ }).first().click()
    const restored = page.waitForResponse((r) => r.url().includes(`/api/articles/versions/${first.id}`) && r.request().method() === 'POST')
    await page.getByRole('button', { name: 'Confirm' }).click()
    expect((await restored).status()).toBe(200)
    const publicAfter = await publicText(reader, id)
    expect(publicAfter).toContain('First published words.')
    expect(publicAfter).not.toContain('Second words')
    await reader.close()
    await page.close()
  })
})

describe('live preview', () => {
  it('shows the draft on the reader site beside the editor, and reloads it on each autosave', async () => {
    const page = await context.newPage()
    const editor = new ArticleEditorPage(page, app.url)
    await editor.create()
    await editor.setTitle('Live preview in the browser')
    await editor.chooseFormat('Markdown')
    await editor.pasteText('Words that were published.\n')
    const id = await editor.publish()

    // The eye button opens the preview page of the article in an iframe beside the editor.
    const framed = page.waitForResponse((r) => new URL(r.url()).pathname === `/preview/${id}`)
    await page.locator('#live-preview-toggler').click()
    const first = await framed
    expect(first.status()).toBe(200)
    const headers = first.headers()
    expect(headers['x-frame-options']).toBe('SAMEORIGIN')
    expect(headers['content-security-policy']).toContain("frame-ancestors 'self'")
    expect(headers['x-robots-tag']).toContain('noindex')
    expect(headers['cache-control']).toContain('no-store')
    const frame = page.frameLocator('#live-preview-iframe')
    await frame.locator('article .body', { hasText: 'Words that were published.' }).waitFor()
    await expect(frame.locator('meta[name="robots"]').getAttribute('content')).resolves.toBe('noindex')
    const src = new URL((await page.locator('#live-preview-iframe').getAttribute('src'))!)
    expect(src.pathname).toBe(`/preview/${id}`)
    expect(src.searchParams.get('token')).toBeTruthy()

    // Typed, autosaved: the admin posts its document event, the page reloads itself with the draft. The iframe
    // keeps its URL (the same link for the hour), so only that reload can bring the typed words.
    const autosaved = editor.articleSaved('autosave')
    await page.keyboard.press('Control+End')
    await editor.pasteText('\nTyped beside the live preview.\n')
    expect((await autosaved).markdown).toContain('Typed beside the live preview.')
    await frame.locator('article .body', { hasText: 'Typed beside the live preview.' }).waitFor()
    expect(await page.locator('#live-preview-iframe').getAttribute('src')).toBe(src.href)
    // The reader keeps the published page meanwhile.
    const reader = await context.browser()!.newPage()
    const published = await publicText(reader, id)
    expect(published).toContain('Words that were published.')
    expect(published).not.toContain('Typed beside')
    await reader.close()
    await page.close()
  })
})
