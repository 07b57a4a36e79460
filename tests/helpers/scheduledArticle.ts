/**
 * Issue 26 §1, shared by the sync-mode and the pg-boss e2e tests: an article
 * published for a time a few seconds ahead appears, nobody saving it again, on
 * every cached page that lists it — home, its category and tag pages, the
 * three feeds and the sitemap — within a minute of that time, and not before.
 */
import { expect } from 'vitest'

import { api, logIn } from './http'
import { waitUntil } from './waitUntil'

/** Every cached place a newly public article must show up in. */
export const LISTING_PATHS = (category: string, tag: string) => ['/', `/categories/${category}`, `/tags/${tag}`, '/rss', '/atom.xml', '/feed.json', '/sitemap.xml']

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' }

async function read(baseUrl: string, path: string) {
  const response = await fetch(baseUrl + path, { headers: BROWSER })
  return { status: response.status, cache: response.headers.get('x-cache'), body: await response.text() }
}

/**
 * Writes the article through `writeUrl` (publish time `leadMs` ahead), checks
 * every listing on `readUrl` is cached without it, then waits for all of them
 * to show it. Returns how long after its publish time the last one did.
 */
export async function expectScheduledArticleToAppear(writeUrl: string, readUrl: string, { leadMs = 20_000 } = {}): Promise<number> {
  const { token } = await logIn(writeUrl, 'owner@inkwell.test')
  const [category] = (await api<{ docs: { id: number; slug: string }[] }>(writeUrl, '/categories?limit=1&sort=order&depth=0')).docs
  const [tag] = (await api<{ docs: { id: number; slug: string }[] }>(writeUrl, '/tags?limit=1&sort=name&depth=0')).docs
  const publishAt = new Date(Date.now() + leadMs)
  const title = `Scheduled everywhere ${Date.now()}`
  const { doc } = await api<{ doc: { id: number; slug: string } }>(writeUrl, '/articles', {
    method: 'POST',
    token,
    body: JSON.stringify({ title, format: 'markdown', markdown: 'Arrives on time.', status: 'published', publishedAt: publishAt.toISOString(), category: category!.id, tags: [tag!.id] }),
  })
  const paths = LISTING_PATHS(category!.slug, tag!.slug)
  // The sitemap names the article by its URL; the other listings by its title.
  const shows = (path: string, body: string) => (path === '/sitemap.xml' ? body.includes(`/articles/${doc.id}/`) : body.includes(title))

  for (const path of paths) {
    // Cached now, without it. When the reader is another process, the purge the write caused
    // reaches it through pg_notify a moment later and may drop the copy just made: read until
    // a copy stays.
    const before = await waitUntil(async () => {
      const seen = await read(readUrl, path)
      return seen.cache === 'HIT' && seen
    }, { what: `${path} to be served from the cache`, timeoutMs: 15_000, everyMs: 200 })
    expect(before.status, path).toBe(200)
    expect(shows(path, before.body), `${path} shows it before its time`).toBe(false)
  }
  expect((await read(readUrl, `/articles/${doc.id}/${doc.slug}`)).status).toBe(404)

  await waitUntil(async () => Date.now() > publishAt.getTime(), { what: 'the publish time', timeoutMs: leadMs + 10_000 })
  const missing = async () => (await Promise.all(paths.map(async (p) => (shows(p, (await read(readUrl, p)).body) ? null : p)))).filter(Boolean)
  await waitUntil(async () => (await missing()).length === 0, { what: 'every listing to show the scheduled article', timeoutMs: 75_000, everyMs: 1_000 })
  expect((await read(readUrl, `/articles/${doc.id}/${doc.slug}`)).status).toBe(200)
  return Date.now() - publishAt.getTime()
}
