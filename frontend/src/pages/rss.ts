import type { APIRoute } from 'astro'

import { feedResponse, loadFeed, rss } from '../lib/feed'

export const GET: APIRoute = async () => feedResponse(rss(await loadFeed()), 'application/rss+xml; charset=utf-8')
