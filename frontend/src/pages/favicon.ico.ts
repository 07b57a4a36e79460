import type { APIRoute } from 'astro'

/** Browsers and crawlers ask for /favicon.ico whatever the page says: send them to the site's icon. */
export const GET: APIRoute = () =>
  new Response(null, { status: 301, headers: { location: '/favicon.svg', 'cache-control': 'public, max-age=86400' } })
