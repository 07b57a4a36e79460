/**
 * Sign-in through providers in Chromium, on the app started the README's
 * way: the site's buttons, then the provider's own login and consent pages
 * (oidc-provider as the Google-like OpenID Connect provider, the
 * @node-oauth/oauth2-server test server as GitHub), and back, signed in.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { freePort, startApp, type RunningApp } from '../helpers/app'
import { launchBrowser } from '../helpers/browser'
import { startOidcServer, startPlainOAuthServer, type OidcServer, type PlainOAuthServer } from '../helpers/oauthServers'
import { AccountMenu } from './pages/AccountPages'
import { OidcProviderPages, PlainProviderPage, ProviderButtons } from './pages/ProviderPages'

let app: RunningApp
let browser: Browser
let google: OidcServer
let github: PlainOAuthServer
let base: string

const ada = { sub: '4242', email: 'ada@example.test', emailVerified: true, name: 'Ada Google' }
const grace = { sub: '77', email: 'grace@example.test', emailVerified: true, name: 'Grace Hub', password: 'hub-secret' }

beforeAll(async () => {
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  google = await startOidcServer({ clientId: 'e2e-google', redirectUri: `${base}/login/google/callback`, idTokenCarriesEmail: true, people: [ada] })
  github = await startPlainOAuthServer({ clients: [{ id: 'e2e-github', redirectUri: `${base}/login/github/callback` }], people: [grace] })
  ;[app, browser] = await Promise.all([
    startApp({
      PORT: String(port),
      BASE_URL: base,
      // Bitbucket is allowed but has no client, GitLab has a client but is not allowed: neither gets a button.
      OAUTH_ALLOWED_PROVIDERS: 'github,google,bitbucket',
      GOOGLE_CLIENT_ID: google.client.id,
      GOOGLE_CLIENT_SECRET: google.client.secret,
      GOOGLE_ISSUER: google.issuer,
      GITHUB_CLIENT_ID: 'e2e-github',
      GITHUB_CLIENT_SECRET: github.clients.get('e2e-github')!.secret,
      GITHUB_AUTHORIZATION_URL: `${github.url}/authorize`,
      GITHUB_TOKEN_URL: `${github.url}/token`,
      GITHUB_API_URL: `${github.url}/github`,
      GITLAB_CLIENT_ID: 'unused',
      GITLAB_CLIENT_SECRET: 'unused',
    }),
    launchBrowser(),
  ])
}, 600_000)

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  await google?.close()
  await github?.close()
})

async function freshPage(): Promise<Page> {
  return (await browser.newContext()).newPage()
}

describe('sign-in through providers in the browser', () => {
  it('shows a button only for providers that are allowed and configured', async () => {
    const page = await freshPage()
    await page.goto(`${base}/login`)
    const buttons = new ProviderButtons(page)
    expect(await buttons.buttons().allTextContents()).toEqual(['Sign in with GitHub', 'Sign in with Google'])
    await page.goto(`${base}/register`)
    expect(await page.getByTestId('provider-buttons').getByRole('link').allTextContents()).toEqual(['Sign up with GitHub', 'Sign up with Google'])
    const notAllowed = await page.goto(`${base}/login/gitlab`)
    expect(notAllowed?.status()).toBe(404)
  })

  it('signs in with Google (OpenID Connect) through its login and consent pages, and creates the site owner', async () => {
    const page = await freshPage()
    await page.goto(`${base}/login`)
    await new ProviderButtons(page).button('Google').click()
    await page.waitForURL((url) => url.href.startsWith(google.issuer))
    const idp = new OidcProviderPages(page)
    await idp.signIn(ada.sub, 'any-password')
    await idp.consent()
    await page.waitForURL(`${base}/profile?welcome=1`)
    await expect(new AccountMenu(page).userName().textContent()).resolves.toContain('Ada Google')
    const section = page.getByTestId('linked-providers')
    await expect(section.textContent()).resolves.toMatch(/Google \(ada@example\.test\)[\s\S]*only way to sign in/)
  })

  it('signs in with GitHub (OAuth 2.0) through its login page, and explains a denial', async () => {
    const page = await freshPage()
    await page.goto(`${base}/login?next=/search`)
    await new ProviderButtons(page).button('GitHub').click()
    await page.waitForURL((url) => url.href.startsWith(github.url))
    await new PlainProviderPage(page).deny()
    await page.waitForURL((url) => url.pathname === '/login')
    await expect(new ProviderButtons(page).oauthError().textContent()).resolves.toMatch(/cancelled or refused/)

    await new ProviderButtons(page).button('GitHub').click()
    await page.waitForURL((url) => url.href.startsWith(github.url))
    await new PlainProviderPage(page).authorize(grace.sub, grace.password)
    await page.waitForURL((url) => url.href.startsWith(`${base}/`) && !url.pathname.startsWith('/login'))
    await expect(new AccountMenu(page).userName().textContent()).resolves.toContain('Grace Hub')
  })

  it('answers the callback with no referrer (issue 27, item 13)', async () => {
    const response = await fetch(`${base}/login/github/callback?code=some-code&state=some-state`, { redirect: 'manual' })
    expect(response.status).toBe(303)
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
  })

  it('in the production build, explains a code the provider refuses as such, not as "not available" (issue 27, item 14)', async () => {
    // A first sign-in, whose code the provider then considers used.
    const first = await freshPage()
    let usedCode = ''
    first.on('request', (request) => {
      const url = new URL(request.url())
      if (url.pathname === '/login/github/callback') usedCode = url.searchParams.get('code') ?? ''
    })
    await first.goto(`${base}/login`)
    await new ProviderButtons(first).button('GitHub').click()
    await first.waitForURL((url) => url.href.startsWith(github.url))
    await new PlainProviderPage(first).authorize(grace.sub, grace.password)
    await first.waitForURL((url) => url.href.startsWith(`${base}/`) && !url.pathname.startsWith('/login'))
    expect(usedCode).not.toBe('')

    // A second sign-in, answered (with this attempt's state) by the used code: the provider refuses it
    // (a TokenError inside the exchange). The browser is sent back by hand, since a redirect hop cannot be rewritten.
    const second = await freshPage()
    await second.goto(`${base}/login`)
    await new ProviderButtons(second).button('GitHub').click()
    await second.waitForURL((url) => url.href.startsWith(github.url))
    const state = new URL(second.url()).searchParams.get('state')!
    await second.goto(`${base}/login/github/callback?code=${encodeURIComponent(usedCode)}&state=${encodeURIComponent(state)}`)
    await second.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('oauth_error'))
    expect(new URL(second.url()).searchParams.get('oauth_error')).toBe('rejected')
    await expect(new ProviderButtons(second).oauthError().textContent()).resolves.toMatch(/did not accept this sign-in/)
  })
})
