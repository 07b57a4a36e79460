/**
 * `path` with the given query parameters set (`/a?page=2` + `{ edit: 7 }` →
 * `/a?page=2&edit=7`); a parameter given as undefined is removed, and
 * `page` is left out when it is 1.
 */
export function withParams(path: string, params: Record<string, string | number | undefined>): string {
  const [pathname, query = ''] = path.split('?', 2) as [string, string?]
  const search = new URLSearchParams(query)
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || (name === 'page' && Number(value) <= 1)) search.delete(name)
    else search.set(name, String(value))
  }
  const q = search.toString()
  return q ? `${pathname}?${q}` : pathname
}

/** `path` with `page=N` in its query when N > 1 (`/?sort=replied` → `/?sort=replied&page=2`). */
export const withPage = (path: string, page: number): string => withParams(path, { page })
