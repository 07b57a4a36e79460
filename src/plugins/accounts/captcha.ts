/**
 * Image captchas for public forms. The answer never leaves the server: it is
 * stored in `captcha_challenges` under a random token that the browser holds
 * in an HttpOnly cookie, is checked case-insensitively, expires after five
 * minutes, and is deleted by the first attempt, right or wrong.
 *
 * The picture is a PNG, not svg-captcha's SVG: an SVG carries each glyph's
 * outline as path data, which a program matches against the font without
 * looking at any pixel. Here the SVG is only drawn on the server (sharp),
 * with speckles, noise curves and a random shear, and only pixels go out.
 */
import { randomBytes, randomInt } from 'node:crypto'

import type { Payload } from 'payload'
import sharp from 'sharp'
import svgCaptcha from 'svg-captcha'

import { poolOf } from '../../lib/pool'

export const CAPTCHA_COOKIE = 'inkwell-captcha'
export const CAPTCHA_TTL_MS = 5 * 60 * 1000

export type CaptchaCheck = 'ok' | 'wrong' | 'expired' | 'missing'

const pool = poolOf

export const CAPTCHA_WIDTH = 300
export const CAPTCHA_HEIGHT = 100

/** Grey speckles over the whole picture: they break up edges for a program, a person reads through them. */
function speckles(width: number, height: number, count: number): string {
  let dots = ''
  for (let i = 0; i < count; i++) {
    const shade = randomInt(80, 200)
    dots += `<circle cx="${randomInt(width)}" cy="${randomInt(height)}" r="${randomInt(1, 3) / 2}" fill="rgb(${shade},${shade},${shade})"/>`
  }
  return dots
}

/** svg-captcha's drawing, rasterised with speckles and a random shear; the SVG itself never leaves the server. */
export async function renderCaptcha(svg: string): Promise<Buffer> {
  const width = CAPTCHA_WIDTH / 2
  const height = CAPTCHA_HEIGHT / 2
  const noisy = svg.replace('</svg>', `${speckles(width, height, 140)}</svg>`)
  const shear = (randomInt(-12, 13) / 100) || 0.08
  // Two pipelines: sharp applies one resize per pipeline, after the shear, so the size is fixed in the second.
  const sheared = await sharp(Buffer.from(noisy), { density: 144 })
    .affine([1, shear, 0, 1], { background: '#f4f1ea', interpolator: sharp.interpolators.bicubic })
    .png()
    .toBuffer()
  return sharp(sheared)
    .resize(CAPTCHA_WIDTH, CAPTCHA_HEIGHT, { fit: 'fill' })
    .blur(0.6)
    // More contrast: svg-captcha's random colours can be pale; the light background turns white, the glyphs darker.
    .linear(1.5, -110)
    .png({ compressionLevel: 9, palette: true, colours: 64 })
    .toBuffer()
}

/** Makes a new challenge; the caller sets `token` as the browser's captcha cookie and shows the `png`. */
export async function createCaptcha(payload: Payload): Promise<{ token: string; png: Buffer }> {
  // Without 0/o/1/l/i, which even honest readers confuse.
  const { text, data } = svgCaptcha.create({
    size: 5,
    noise: 3,
    ignoreChars: '0oO1lIi',
    // Smaller than svg-captcha's default (56), so descenders and the shear stay inside the picture.
    fontSize: 44,
    background: '#f4f1ea',
    width: CAPTCHA_WIDTH / 2,
    height: CAPTCHA_HEIGHT / 2,
  })
  const token = randomBytes(24).toString('base64url')
  const db = pool(payload)
  await db.query('delete from captcha_challenges where expires_at < now()')
  await db.query('insert into captcha_challenges (token, answer, expires_at) values ($1, $2, $3)', [
    token,
    text.toLowerCase(),
    new Date(Date.now() + CAPTCHA_TTL_MS),
  ])
  return { token, png: await renderCaptcha(data) }
}

/** Consumes the challenge (single use: one DELETE … RETURNING, so two racing attempts can't both pass). */
export async function checkCaptcha(payload: Payload, token: string | undefined, answer: unknown): Promise<CaptchaCheck> {
  if (!token) return 'missing'
  const { rows } = await pool(payload).query(
    'delete from captcha_challenges where token = $1 returning answer, expires_at',
    [token],
  )
  const row = rows[0]
  if (!row) return 'expired'
  if (new Date(row.expires_at as string).getTime() < Date.now()) return 'expired'
  const given = typeof answer === 'string' ? answer.trim().toLowerCase() : ''
  return given !== '' && given === row.answer ? 'ok' : 'wrong'
}
