import type { APIRoute } from 'astro'

import { buildFeed, feedResponse, siteOrigin } from '../lib/feed'

export const GET: APIRoute = async ({ url }) =>
  feedResponse((await buildFeed(siteOrigin(url))).json1(), 'application/feed+json; charset=utf-8')
