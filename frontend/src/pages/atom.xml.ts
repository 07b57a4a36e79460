import type { APIRoute } from 'astro'

import { buildFeed, feedResponse, siteOrigin } from '../lib/feed'

export const GET: APIRoute = async ({ url }) =>
  feedResponse((await buildFeed(siteOrigin(url))).atom1(), 'application/atom+xml; charset=utf-8')
