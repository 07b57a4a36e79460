import type { APIRoute } from 'astro'

import { feedResponse, jsonFeed, loadFeed } from '../lib/feed'

export const GET: APIRoute = async () => feedResponse(jsonFeed(await loadFeed()), 'application/feed+json; charset=utf-8')
