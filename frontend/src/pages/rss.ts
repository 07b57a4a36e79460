import type { APIRoute } from 'astro'

import { buildFeed, feedResponse, siteOrigin } from '../lib/feed'

export const GET: APIRoute = async ({ url }) =>
  feedResponse((await buildFeed(siteOrigin(url))).rss2(), 'application/rss+xml; charset=utf-8')
