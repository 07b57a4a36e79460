/** robots.txt (issue 26): crawlers may fetch what the pages link to under /api, and nothing else there. */
import robotsParser from 'robots-parser'
import { describe, expect, it } from 'vitest'

import { robotsTxt } from '../../frontend/src/lib/robots'

const ORIGIN = 'https://blog.example.test'
const robots = robotsParser(`${ORIGIN}/robots.txt`, robotsTxt(ORIGIN))
const allowed = (path: string) => robots.isAllowed(ORIGIN + path, 'Googlebot')

describe('robots.txt', () => {
  it('lets crawlers fetch the share cards og:image names and every uploaded image', () => {
    expect(allowed('/api/articles/42/card?width=1200&theme=light&v=1764000000000')).toBe(true)
    expect(allowed('/api/media/file/photo.webp')).toBe(true)
    expect(allowed('/api/media/file/avatar-7-96x96.png')).toBe(true)
  })

  it('keeps the admin and the rest of the API closed, and names the sitemap', () => {
    for (const path of ['/admin', '/admin/collections/users', '/api/users', '/api/articles', '/api/articles/42', '/api/media', '/api/accounts/captcha']) {
      expect(allowed(path), path).toBe(false)
    }
    expect(allowed('/')).toBe(true)
    expect(allowed('/articles/42/hello')).toBe(true)
    expect(robots.getSitemaps()).toEqual([`${ORIGIN}/sitemap.xml`])
  })

  it('lets first-match crawlers through too: the Allow lines come before Disallow: /api', () => {
    const lines = robotsTxt(ORIGIN).split('\n')
    expect(lines.findIndex((l) => l.startsWith('Allow: /api/media/file/'))).toBeLessThan(lines.indexOf('Disallow: /api'))
  })
})
