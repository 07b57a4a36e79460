/**
 * Drives Payload's real HTTP pipeline (handleEndpoints: request parsing,
 * cookie auth, CSRF origin check, custom endpoints) without a listening
 * server, keeping cookies like a browser would.
 */
import { handleEndpoints, type Payload } from 'payload'

import { query } from '../../src/lib/pool'

export const BASE = 'http://localhost:3000'

export type Reply = { status: number; headers: Headers; json: () => Promise<any>; text: () => Promise<string> }

export class Browser {
  cookies = new Map<string, string>()
  constructor(
    private readonly payload: Payload,
    private readonly cacheKey: string,
    public ip = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    private readonly base = BASE,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  private remember(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';')
      const [name, ...rest] = pair!.split('=')
      const value = rest.join('=')
      const expired = attrs.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim())) || value === ''
      if (expired) this.cookies.delete(name!.trim())
      else this.cookies.set(name!.trim(), value)
    }
  }

  async request(
    path: string,
    init: { method?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string>; origin?: string | null } = {},
  ): Promise<Reply> {
    const headers = new Headers(init.headers)
    headers.set('x-forwarded-for', this.ip)
    if (this.cookies.size) headers.set('cookie', this.cookieHeader())
    const method = init.method ?? (init.json !== undefined || init.body !== undefined ? 'POST' : 'GET')
    // Browsers send Origin on every POST and Sec-Fetch-Site everywhere; tests may replace or drop them.
    if (init.origin !== null && method !== 'GET') headers.set('origin', init.origin ?? this.base)
    if (!headers.has('sec-fetch-site')) headers.set('sec-fetch-site', init.origin && init.origin !== this.base ? 'cross-site' : 'same-origin')
    let body = init.body
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json')
      body = JSON.stringify(init.json)
    }
    const config = this.payload.config
    const response = await handleEndpoints({
      config,
      request: new Request(this.base + path, { method, headers, body }),
      payloadInstanceCacheKey: this.cacheKey,
    })
    this.remember(response.headers)
    const raw = await response.text()
    return { status: response.status, headers: response.headers, json: async () => JSON.parse(raw), text: async () => raw }
  }

  /** Fetches a captcha and reads its answer from the server-side store, as only a test may. */
  async solveCaptcha(): Promise<string> {
    await this.request('/api/accounts/captcha')
    return captchaAnswer(this.payload, this.cookies.get('inkwell-captcha')!)
  }

  async register(fields: Record<string, unknown>): Promise<Reply> {
    const captcha = await this.solveCaptcha()
    return this.request('/api/accounts/register', { json: { captcha, ...fields } })
  }

  login(email: string, password: string, extra: Record<string, unknown> = {}): Promise<Reply> {
    return this.request('/api/accounts/login', { json: { email, password, ...extra } })
  }

  async me(): Promise<{ id: number; name: string; email: string } | null> {
    const reply = await this.request('/api/users/me')
    return (await reply.json()).user ?? null
  }
}

export async function captchaAnswer(payload: Payload, token: string): Promise<string> {
  const rows = await query<{ answer: string }>(payload, 'select answer from captcha_challenges where token = $1', [token])
  if (!rows[0]) throw new Error('no captcha stored for this browser')
  return rows[0].answer
}

export const validUser = (email: string) => ({
  email,
  name: 'Ada Lovelace',
  password: 'analytical-engine',
  passwordConfirm: 'analytical-engine',
})
