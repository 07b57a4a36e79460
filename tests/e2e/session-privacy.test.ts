/**
 * Issue 27 items 4 and 7 on the running app: every answer to a signed-in
 * visitor (the reader site's /profile with the e-mail address and token ids,
 * other pages, the admin, the API) is Cache-Control: private, no-store, while
 * build files keep their long public caching; and a JSON post to a page of
 * the reader site is a 415 naming the forms to send, not a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { logIn, page as fetchPage } from '../helpers/http'

let app: RunningApp

beforeAll(async () => {
  app = await startApp()
})
afterAll(async () => {
  await app?.stop()
})

const navigation = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }

describe('answers that depend on the session', () => {
  it('are private, no-store for a signed-in visitor: /profile, other pages, the admin and the API', async () => {
    const { cookie } = await logIn(app.url, 'reader1@inkwell.test')
    const profile = await fetchPage(app.url, '/profile', { headers: { cookie, ...navigation } })
    expect(profile.status).toBe(200)
    expect(profile.body).toContain('reader1@inkwell.test')
    expect(profile.headers.get('cache-control')).toBe('private, no-store')
    for (const path of ['/', '/notifications', '/admin', '/api/users/me']) {
      const response = await fetchPage(app.url, path, { headers: { cookie, ...navigation } })
      expect(response.headers.get('cache-control'), path).toBe('private, no-store')
    }
  })

  it('leave anonymous pages and build files as they were', async () => {
    const home = await fetchPage(app.url, '/')
    expect(home.headers.get('cache-control') ?? '').not.toContain('private')
    const script = home.body.match(/src="(\/_astro\/[^"]+\.js)"/)?.[1]
    if (script) {
      const { cookie } = await logIn(app.url, 'reader1@inkwell.test')
      const asset = await fetchPage(app.url, script, { headers: { cookie } })
      expect(asset.headers.get('cache-control') ?? '').not.toContain('no-store')
    }
  })
})

describe('posts to the reader site', () => {
  it('a JSON post to /profile answers 415 naming the forms to send, not 500', async () => {
    const { cookie } = await logIn(app.url, 'reader1@inkwell.test')
    const response = await fetch(`${app.url}/profile`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: app.url, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ form: 'profile', name: 'JSON' }),
      redirect: 'manual',
    })
    expect(response.status).toBe(415)
    expect(await response.text()).toMatch(/multipart\/form-data/)
  })
})
