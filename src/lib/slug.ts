/**
 * Slugs from titles in any script. Chinese goes through pinyin-pro, which
 * reads characters by word (重庆 is "chong-qing", 银行 "yin-hang", where a
 * character-by-character table says "zhong" and "xing"); every other script
 * through transliteration ("Crème brûlée" → "creme-brulee", "Привет" → "privet").
 */
import { pinyin } from 'pinyin-pro'
import { slugify as transliterateSlug } from 'transliteration'

export const SLUG_MAX_LENGTH = 96

/** Han ideographs (CJK Unified Ideographs and Extension A): only then is the pinyin pass worth its cost. */
const HAN = /[\u3400-\u4dbf\u4e00-\u9fff]/

/**
 * Chinese characters as space-separated toneless pinyin; everything else
 * untouched. ü is written v (the pinyin keyboard's way), so 女 "nv" and 努 "nu" stay apart.
 */
function withPinyin(input: string): string {
  if (!HAN.test(input)) return input
  return pinyin(input, { toneType: 'none', nonZh: 'consecutive', separator: ' ', v: true })
}

export function slugify(input: string): string {
  const slug = transliterateSlug(withPinyin(input ?? ''), { lowercase: true, separator: '-', trim: true })
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-$/, '')
  return slug || 'untitled'
}

export function isValidSlug(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value) && value.length <= SLUG_MAX_LENGTH
}
