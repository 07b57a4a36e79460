/**
 * What crawlers may fetch. The admin and the API are closed to them, except
 * what the pages link to: the share cards their `og:image` names
 * (`/api/articles/<id>/card`) and uploaded images (`/api/media/file/…`:
 * article pictures, avatars). The Allow lines come first and are longer than
 * `Disallow: /api`, so they win both under RFC 9309 (the longest match) and
 * with older crawlers that take the first match.
 */
export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /api/media/file/',
    'Allow: /api/articles/*/card',
    'Disallow: /admin',
    'Disallow: /api',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n')
}
