/**
 * What a share-card request asks for (issue 28 §2): the image type from
 * Accept, the width (snapped to one of three) and theme from the query or a
 * JSON body. Apart from the drawing (shareCard.ts, sharp), so the one-origin
 * server can read a request without loading it (keptCards.ts).
 */
import { translator, type Translate } from '../../lib/i18n'

export const CARD_FORMATS = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' } as const
export type CardType = keyof typeof CARD_FORMATS
export const CARD_THEMES = ['light', 'dark'] as const
export type CardTheme = (typeof CARD_THEMES)[number]
export const CARD_WIDTH = { min: 200, max: 2400, default: 1200 } as const
/**
 * The widths a card is drawn at (issue 28 §2): any width asked from 200 to
 * 2400 is answered at the nearest of these, so an article has at most
 * 3 widths × 2 themes × 3 types = 18 images, each drawn once per version of
 * the article and kept (on disk, or in the bucket), instead of ~13,000 variants drawn on demand.
 */
export const CARD_WIDTHS = [400, 800, 1200] as const

export type CardOptions = { width: number; theme: CardTheme; type: CardType }

/** The fixed width nearest to `width` (the larger one on a tie). */
export function snapCardWidth(width: number): number {
  let best: number = CARD_WIDTHS[0]
  for (const w of CARD_WIDTHS) if (Math.abs(w - width) <= Math.abs(best - width)) best = w
  return best
}

/** The image type a request's Accept header asks for; undefined when it accepts none of them (→ 406). */
export function negotiateCardType(accept: string | null): CardType | undefined {
  if (!accept || !accept.trim()) return 'image/png'
  let best: { type: CardType; q: number } | undefined
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';')
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith('q='))?.slice(2) ?? 1)
    if (!range || !(q > 0)) continue
    const candidates: CardType[] = range === '*/*' || range === 'image/*' ? ['image/png'] : range in CARD_FORMATS ? [range as CardType] : []
    for (const type of candidates) {
      // An exact type beats a wildcard of the same weight.
      const weight = q + (range.includes('*') ? 0 : 0.0001)
      if (!best || weight > best.q) best = { type, q: weight }
    }
  }
  return best?.type
}

export type CardRequest = { width: number; theme: CardTheme }
export type CardFieldErrors = Record<string, string>

/** Width (snapped to the nearest of CARD_WIDTHS) and theme from a JSON body or a query string, or the field errors naming what is wrong (worded by `t`). */
export function parseCardRequest(input: Record<string, unknown>, t: Translate = translator('en')): { value: CardRequest } | { errors: CardFieldErrors } {
  const errors: CardFieldErrors = {}
  const rawWidth = input.width ?? CARD_WIDTH.default
  const width = typeof rawWidth === 'string' && /^\d{1,5}$/.test(rawWidth.trim()) ? Number(rawWidth) : rawWidth
  if (typeof width !== 'number' || !Number.isInteger(width) || width < CARD_WIDTH.min || width > CARD_WIDTH.max) {
    errors.width = t('error.card.width', { min: String(CARD_WIDTH.min), max: String(CARD_WIDTH.max), got: JSON.stringify(rawWidth) ?? 'undefined' })
  }
  const theme = input.theme ?? 'light'
  if (typeof theme !== 'string' || !(CARD_THEMES as readonly string[]).includes(theme)) {
    errors.theme = t('error.card.theme', { themes: CARD_THEMES.map((name) => `"${name}"`).join(', '), got: JSON.stringify(theme) ?? 'undefined' })
  }
  return Object.keys(errors).length ? { errors } : { value: { width: snapCardWidth(width as number), theme: theme as CardTheme } }
}
