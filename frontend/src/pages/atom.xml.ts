import type { APIRoute } from 'astro'

import { atom, feedResponse, loadFeed } from '../lib/feed'

export const GET: APIRoute = async () => feedResponse(atom(await loadFeed()), 'application/atom+xml; charset=utf-8')
