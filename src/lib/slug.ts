/**
 * Slugs from titles in any script: transliteration turns 你好世界 into
 * "ni-hao-shi-jie" and "Crème brûlée" into "creme-brulee".
 */
import { slugify as transliterateSlug } from 'transliteration'

export const SLUG_MAX_LENGTH = 96

export function slugify(input: string): string {
  const slug = transliterateSlug(input ?? '', { lowercase: true, separator: '-', trim: true })
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
