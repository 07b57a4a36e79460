import type { APIRoute } from 'astro'

import { siteOrigin } from '../lib/feed'

export const GET: APIRoute = ({ url }) =>
  new Response(`User-agent: *\nDisallow: /admin\nDisallow: /api\n\nSitemap: ${siteOrigin(url)}/sitemap.xml\n`, {
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-cache-tags': 'settings' },
  })
