import type { APIRoute } from 'astro'

import { siteOrigin } from '../lib/feed'
import { sitemapRoot } from '../lib/sitemap'

export const GET: APIRoute = () => sitemapRoot(siteOrigin())
