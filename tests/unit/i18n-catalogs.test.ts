/**
 * The two catalogs (src/lib/i18n) hold the same keys with the same
 * parameters; `t` fills parameters and picks plural forms through Intl; the
 * language a request asks for is read the same way by the render cache and
 * the site, and keys the cache in at most three variants per URL.
 */
import { describe, expect, it } from 'vitest'

import { CATALOGS, formatDate, formatNumber, LANGUAGES, relativeTime, t } from '../../src/lib/i18n'
import { negotiateLanguage, requestedLanguage } from '../../src/lib/i18n/negotiate'
import { cacheKeyOf, notFoundTagsOf, urlOfKey, withLanguage } from '../../src/server/renderCache'

const placeholders = (message: unknown): string[] =>
  [...new Set(Object.values(typeof message === 'string' ? { other: message } : (message as Record<string, string>)).flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)))].sort()

describe('the catalogs', () => {
  it('have exactly the same keys in every language', () => {
    const [first, ...rest] = LANGUAGES.map((lang) => Object.keys(CATALOGS[lang]).sort())
    expect(first!.length).toBeGreaterThan(150)
    for (const keys of rest) {
      expect(keys.filter((k) => !first!.includes(k))).toEqual([])
      expect(first!.filter((k) => !keys.includes(k))).toEqual([])
    }
  })

  it('use the same parameters for a key in every language, and no message is empty', () => {
    const mismatched = Object.keys(CATALOGS.en).filter((key) => {
      const k = key as keyof typeof CATALOGS.en
      return JSON.stringify(placeholders(CATALOGS.en[k])) !== JSON.stringify(placeholders(CATALOGS['zh-CN'][k]))
    })
    expect(mismatched).toEqual([])
    for (const lang of LANGUAGES) for (const message of Object.values(CATALOGS[lang])) expect(typeof message === 'string' ? message : message.other).not.toBe('')
  })

  it('fills parameters, formats numbers and picks plural forms with Intl', () => {
    expect(t('en', 'card.views', { count: 1 })).toBe('1 view')
    expect(t('en', 'card.views', { count: 1234 })).toBe('1,234 views')
    expect(t('zh-CN', 'card.views', { count: 1234 })).toBe('1,234 次阅读')
    expect(t('zh-CN', 'pager.position', { page: 2, total: 5 })).toBe('第 2 页，共 5 页')
    expect(t('en', 'search.resultsFor', { query: '{count}' })).toBe('Results for “{count}”') // a parameter's text is not read again
    expect(formatNumber('en', 1234567)).toBe('1,234,567')
  })

  it('writes dates in the language and the site’s time zone, and relative times', () => {
    const when = new Date('2026-01-31T23:30:00Z')
    expect(formatDate('en', when, 'UTC')).toBe('Jan 31, 2026')
    expect(formatDate('zh-CN', when, 'UTC', 'long')).toBe('2026年1月31日')
    expect(formatDate('zh-CN', when, 'Asia/Shanghai', 'long')).toBe('2026年2月1日')
    const now = new Date('2026-02-01T02:30:00Z')
    expect(relativeTime('en', when, now)).toBe('3 hours ago')
    expect(relativeTime('zh-CN', when, now)).toBe('3小时前')
  })
})

describe('the language a request asks for', () => {
  it('reads Accept-Language with its q-values, normalised to the two catalogs', () => {
    expect(negotiateLanguage('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh-CN')
    expect(negotiateLanguage('en-US,en;q=0.9')).toBe('en')
    expect(negotiateLanguage('fr-FR, zh-TW;q=0.5, en;q=0.4')).toBe('zh-CN')
    expect(negotiateLanguage('fr, de')).toBeNull()
    expect(negotiateLanguage('zh;q=0, en;q=0.1')).toBe('en')
    expect(negotiateLanguage(undefined)).toBeNull()
  })

  it('prefers the switcher’s cookie, and ignores a cookie naming no catalog', () => {
    expect(requestedLanguage('a=1; lang=zh-CN', 'en')).toBe('zh-CN')
    expect(requestedLanguage('lang=en', 'zh-CN')).toBe('en')
    expect(requestedLanguage('lang=klingon', 'zh-CN')).toBe('zh-CN')
    expect(requestedLanguage('xlang=zh-CN', undefined)).toBeNull()
    expect(requestedLanguage(undefined, undefined)).toBeNull()
  })

  it('reads only the first 50 parts of a hostile header (linear in its length)', () => {
    expect(negotiateLanguage('x-' + 'a'.repeat(200_000) + ';q=0.5,'.repeat(50_000) + 'zh')).toBeNull()
  })

  it('keys the render cache on the language: three variants of a URL at most, the URL itself unchanged', () => {
    const url = cacheKeyOf('/articles/7/hello?utm=x')!
    const keys = new Set(['zh-CN', 'en', 'zh-CN', null, 'en'].map((lang) => withLanguage(url, lang as 'en' | 'zh-CN' | null)))
    expect([...keys].sort()).toEqual(['/articles/7/hello', '/articles/7/hello en', '/articles/7/hello zh-CN'])
    for (const key of keys) expect(urlOfKey(key)).toBe('/articles/7/hello')
    expect(notFoundTagsOf(withLanguage('/users/3', 'zh-CN'))).toEqual(notFoundTagsOf('/users/3'))
    // Feeds and sitemaps have no interface words: one variant.
    expect(withLanguage('/rss', 'zh-CN')).toBe('/rss')
    expect(withLanguage('/sitemaps/1.xml', 'en')).toBe('/sitemaps/1.xml')
  })
})
