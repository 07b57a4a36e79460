import type { APIRoute } from 'astro'

import { siteOrigin } from '../lib/feed'
import { robotsTxt } from '../lib/robots'

export const GET: APIRoute = () =>
  new Response(robotsTxt(siteOrigin()), {
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-cache-tags': 'settings' },
  })
