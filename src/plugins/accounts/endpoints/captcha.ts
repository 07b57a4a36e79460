import { accountEndpoint, noStore } from '../../../lib/accountHttp'
import { CAPTCHA_COOKIE, CAPTCHA_TTL_MS, createCaptcha } from '../captcha'
import { limitByIp } from '../../../lib/rateLimit'
import type { AccountsOptions } from '../options'

/** GET /api/accounts/captcha — a fresh PNG challenge bound to this browser by an HttpOnly cookie; rate-limited per IP. */
export const captchaEndpoint = ({ secureCookies }: AccountsOptions) =>
  accountEndpoint('get', '/captcha', async (req) => {
    await limitByIp(req, 'captcha')
    const { token, png } = await createCaptcha(req.payload)
    const headers = noStore(new Headers({ 'Content-Type': 'image/png', 'X-Content-Type-Options': 'nosniff' }))
    headers.append(
      'Set-Cookie',
      `${CAPTCHA_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${CAPTCHA_TTL_MS / 1000}${secureCookies ? '; Secure' : ''}`,
    )
    return new Response(new Uint8Array(png), { status: 200, headers })
  })
