/** Shared by the importer (which stores old URLs) and the reader site (which looks them up on a 404). */

/** The text without its trailing slashes, in one backward pass (`/\/+$/` rescans a run of slashes from each start: quadratic). */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length
  while (end > 0 && text.charCodeAt(end - 1) === 47) end--
  return text.slice(0, end)
}

/**
 * An old URL (absolute or a path) as the redirects table keys it: its path
 * without a trailing slash, and its query when that names a post, page,
 * category, tag or author (`/?p=12`); null for a URL of no use.
 */
export function normalizeRedirectPath(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url.slice(0, 2000), 'http://old.invalid')
  } catch {
    return null
  }
  const path = parsed.pathname.length > 1 ? withoutTrailingSlashes(parsed.pathname) : parsed.pathname
  const kept = ['p', 'page_id', 'cat', 'tag', 'author'].filter((k) => parsed.searchParams.has(k))
  const search = kept.length ? '?' + kept.map((k) => `${k}=${encodeURIComponent(parsed.searchParams.get(k)!)}`).join('&') : ''
  return (path + search).slice(0, 1000)
}
