/** What the user-switch tests share: signing in on a host, and reading the session a browser holds. */
import type { Payload } from 'payload'

import { Browser } from './restClient'
import { PASSWORD } from './users'

export const DEBUG_BASE = 'http://inkwell.test:3000'

export async function signedIn(payload: Payload, cacheKey: string, email: string, base = DEBUG_BASE): Promise<Browser> {
  const browser = new Browser(payload, cacheKey, undefined, base)
  const reply = await browser.request('/api/users/login', { json: { email, password: PASSWORD } })
  if (reply.status !== 200) throw new Error(`login as ${email} answered ${reply.status}: ${await reply.text()}`)
  return browser
}

/** The same cookies, sent to another host. */
export function onHost(payload: Payload, cacheKey: string, from: Browser, base: string): Browser {
  const browser = new Browser(payload, cacheKey, from.ip, base)
  for (const [k, v] of from.cookies) browser.cookies.set(k, v)
  return browser
}

/** The session id inside a browser's Payload token. */
export function sessionIdOf(browser: Browser): string {
  const token = browser.cookies.get('payload-token')!
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).sid
}
