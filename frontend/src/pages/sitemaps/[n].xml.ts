import type { APIRoute } from 'astro'

import { siteOrigin } from '../../lib/feed'
import { sitemapPart } from '../../lib/sitemap'

export const GET: APIRoute = async ({ params, rewrite }) =>
  (await sitemapPart(siteOrigin(), Number(params.n))) ?? rewrite('/404')
