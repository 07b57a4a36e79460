import type { APIRoute } from 'astro'

import { siteOrigin } from '../lib/feed'

export const GET: APIRoute = () =>
  new Response(`User-agent: *\nDisallow: /admin\nDisallow: /api\n\nSitemap: ${siteOrigin()}/sitemap.xml\n`, {
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-cache-tags': 'settings' },
  })
