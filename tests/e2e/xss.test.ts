/**
 * The attack corpus stored through the REST API (as an author and as a
 * reader would), then opened in Chromium with alert/confirm/prompt/print
 * trapped and events dispatched on every element: nothing may fire. Articles
 * are opened on their real public page; replies' stored HTML is shown inside
 * the site's own layout (the public replies list is built separately).
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { codeBlock, editorState, heading, paragraph, text } from '../fixtures/lexical'
import { XSS_VECTORS } from '../fixtures/xss-vectors'
import { startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'

let app: RunningApp
let browser: Browser
let page: Page

const EVENTS = [
  'click', 'dblclick', 'auxclick', 'contextmenu', 'mousedown', 'mouseup', 'mouseover', 'mouseenter', 'mouseleave', 'mousemove',
  'pointerdown', 'pointerenter', 'pointerover', 'focus', 'focusin', 'blur', 'keydown', 'keyup', 'input', 'change', 'submit',
  'error', 'load', 'toggle', 'animationstart', 'animationend', 'transitionend', 'wheel', 'scroll', 'copy', 'cut', 'paste',
  'beforecopy', 'drag', 'dragstart', 'drop', 'begin', 'start', 'finish', 'select', 'invalid', 'search', 'beforeinput',
]

/** Installed before any page script: records every dialog or print instead of showing it. */
function trapDialogs() {
  const w = window as unknown as { __fired: string[] }
  w.__fired = []
  for (const name of ['alert', 'confirm', 'prompt', 'print'] as const) {
    ;(window as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      w.__fired.push(`${name}(${args.map(String).join(',')})`)
      return null
    }
  }
  // Synthetic clicks on links must not navigate away; inline handlers still run.
  window.addEventListener('click', (e) => e.preventDefault(), true)
  window.addEventListener('submit', (e) => e.preventDefault(), true)
}

/** Dispatches every event on every element of the body, then returns what fired. */
async function provoke(page: Page, selector: string): Promise<string[]> {
  await page.waitForFunction(() => [...document.images].every((i) => i.complete))
  return page.evaluate(
    ({ selector, events }) => {
      for (const el of document.querySelectorAll(`${selector}, ${selector} *`)) {
        for (const type of events) el.dispatchEvent(new Event(type, { bubbles: true, cancelable: true }))
        ;(el as HTMLElement).focus?.()
        ;(el as HTMLElement).click?.()
      }
      return (window as unknown as { __fired: string[] }).__fired
    },
    { selector, events: EVENTS },
  )
}

let shown = ''
/** Serves `html` as a real page of the site's origin (a navigation, so the dialog trap is installed afresh). */
async function showOnSite(page: Page, html: string) {
  shown = html
  await page.goto(`${app.url}/__xss-check/${Date.now()}`)
}

async function api(path: string, token: string, body: unknown) {
  const response = await fetch(`${app.url}/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `JWT ${token}` },
    body: JSON.stringify(body),
  })
  const json = (await response.json()) as { doc?: { id: number; html: string }; errors?: unknown }
  if (!response.ok || !json.doc) throw new Error(`POST ${path} → ${response.status}: ${JSON.stringify(json.errors)}`)
  return json.doc
}

async function logIn(email: string): Promise<string> {
  const response = await fetch(`${app.url}/api/users/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'inkwell-demo' }),
  })
  return ((await response.json()) as { token: string }).token
}

beforeAll(async () => {
  // The corpus is posted by one account: lift the per-account reply limit.
  ;[app, browser] = await Promise.all([startApp({ REPLY_RATE_LIMIT: '1000' }), launchBrowser()])
  page = await browser.newPage()
  await page.addInitScript(trapDialogs)
  // The corpus points at made-up hosts; only the app itself is reachable.
  await page.route('**/*', (route) => (new URL(route.request().url()).host === new URL(app.url).host ? route.continue() : route.abort()))
  await page.route('**/__xss-check/**', (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: shown }))
  page.on('dialog', (dialog) => void dialog.dismiss())
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

describe('the attack corpus in Chromium', () => {
  it(`fires nothing on the public pages of ${XSS_VECTORS.length} Markdown articles`, async () => {
    const author = await logIn('author@inkwell.test')
    const fired: string[] = []
    for (const v of XSS_VECTORS) {
      const doc = await api('/articles', author, { title: `XSS ${v.id}`, format: 'markdown', markdown: v.payload, status: 'published' })
      const response = await page.goto(`${app.url}/articles/${doc.id}/-`)
      expect(response?.status()).toBe(200)
      fired.push(...(await provoke(page, 'article .body')).map((f) => `${v.id}: ${f}`))
    }
    expect(fired).toEqual([])
  })

  it('fires nothing on the public page of a rich-text article holding the whole corpus', async () => {
    const author = await logIn('author@inkwell.test')
    const content = editorState(
      ...XSS_VECTORS.flatMap((v, i) => [heading('h2', v.payload), paragraph(text(v.payload)), codeBlock(v.payload, i % 2 ? 'html' : 'typescript')]),
    )
    const doc = await api('/articles', author, { title: 'XSS rich text', format: 'html', content, status: 'published' })
    await page.goto(`${app.url}/articles/${doc.id}/-`)
    expect(await provoke(page, 'article .body')).toEqual([])
  })

  it(`fires nothing for ${XSS_VECTORS.length} stored replies shown inside the site's layout`, async () => {
    const author = await logIn('author@inkwell.test')
    const reader = await logIn('reader1@inkwell.test')
    const host = await api('/articles', author, { title: 'Reply host', format: 'markdown', markdown: 'Host', status: 'published' })
    const layout = await (await fetch(`${app.url}/articles/${host.id}/-`)).text()
    expect(layout).toContain('<div class="body">')
    const fired: string[] = []
    for (const v of XSS_VECTORS) {
      const reply = await api('/replies', reader, { article: host.id, body: v.payload })
      const html = layout.replace(/<div class="body">[\s\S]*?<\/div>/, () => `<div class="body"><section class="reply">${reply.html}</section></div>`)
      await showOnSite(page, html)
      fired.push(...(await provoke(page, 'article .body')).map((f) => `${v.id}: ${f}`))
    }
    expect(fired).toEqual([])
  })

  it('the trap works: a script that is let through is caught', async () => {
    await showOnSite(
      page,
      '<article><div class="body"><img src="/nothing.png" onerror="alert(1)"><p onclick="confirm(2)">x</p></div></article>',
    )
    expect(await provoke(page, 'article .body')).toEqual(expect.arrayContaining(['alert(1)', 'confirm(2)']))
  })
})
