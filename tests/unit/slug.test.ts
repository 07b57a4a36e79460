import { describe, expect, it } from 'vitest'

import { isValidSlug, slugify } from '../../src/lib/slug'

describe('slugify', () => {
  it.each([
    ['Hello, World!', 'hello-world'],
    ['  Spaces   everywhere  ', 'spaces-everywhere'],
    ['Crème brûlée', 'creme-brulee'],
    ['深入理解 PostgreSQL 索引', 'shen-ru-li-jie-postgresql-suo-yin'],
    // Pinyin read by word: a character table would say "zhong-qing" and "yin-xing".
    ['重庆的银行', 'chong-qing-de-yin-hang'],
    ['女人和旅行', 'nv-ren-he-lv-xing'],
    ['Vue 3 入门', 'vue-3-ru-men'],
    ['Привет, мир', 'privet-mir'],
    ['Ελληνικά', 'ellinika'],
    ['<script>alert(1)</script>', 'script-alert-1-script'],
    ['!!!', 'untitled'],
    ['', 'untitled'],
  ])('%j → %s', (input, expected) => {
    expect(slugify(input)).toBe(expected)
  })

  it('keeps slugs short and valid', () => {
    const slug = slugify('word '.repeat(100))
    expect(slug.length).toBeLessThanOrEqual(96)
    expect(isValidSlug(slug)).toBe(true)
  })

  it('rejects malformed slugs', () => {
    expect(isValidSlug('Has Caps')).toBe(false)
    expect(isValidSlug('double--hyphen')).toBe(false)
    expect(isValidSlug('-leading')).toBe(false)
    expect(isValidSlug('ok-slug-1')).toBe(true)
  })
})
